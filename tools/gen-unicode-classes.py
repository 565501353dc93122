#!/usr/bin/env python3
"""gen-unicode-classes.py [UCD_DIR] - write a rule set's data file of kind unicode-classes
(rules-yaml/README.md, "Data files") from the Unicode Character Database, to stdout.

A maintainer's tool, not run by the build: the data file it writes is committed, so a
released rule set judges the same way whatever Unicode tables the machine's libraries have.
UCD_DIR (default /usr/share/unicode, Debian's package unicode-data) must hold
DerivedCoreProperties.txt, PropList.txt, Scripts.txt, ScriptExtensions.txt, UnicodeData.txt,
ArabicShaping.txt, extracted/DerivedGeneralCategory.txt, extracted/DerivedBidiClass.txt
and emoji/emoji-data.txt; the version is read from DerivedCoreProperties.txt's header.

    python3 tools/gen-unicode-classes.py /usr/share/unicode > unicode.yaml
"""
import os
import re
import sys
import textwrap

UCD = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/unicode"


def ucd_lines(name):
    with open(os.path.join(UCD, name), encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                yield [field.strip() for field in line.split(";")]


def cps(field):
    """'0041' or '0041..005A' -> range(lo, hi + 1)"""
    lo, _, hi = field.partition("..")
    return range(int(lo, 16), int(hi or lo, 16) + 1)


def prop(name, value, column=1):
    """The code points whose field COLUMN of file NAME is VALUE."""
    out = set()
    for f in ucd_lines(name):
        if len(f) > column and f[column] == value:
            out.update(cps(f[0]))
    return out


def version():
    with open(os.path.join(UCD, "DerivedCoreProperties.txt"), encoding="utf-8") as f:
        m = re.search(r"DerivedCoreProperties-(\d+\.\d+\.\d+)\.txt", f.readline())
    if not m:
        sys.exit("gen-unicode-classes: no version in DerivedCoreProperties.txt's first line")
    return m.group(1)


def general_categories():
    gc = {}
    for f in ucd_lines("extracted/DerivedGeneralCategory.txt"):
        for c in cps(f[0]):
            gc[c] = f[1]
    return gc


def joining_scripts():
    """Scripts whose letters join (Joining_Type D, L or R in ArabicShaping.txt) or that
    have a virama (Canonical_Combining_Class 9): where UAX #31 section 2.3 lets ZWJ and
    ZWNJ stand between letters."""
    script = {}
    for f in ucd_lines("Scripts.txt"):
        for c in cps(f[0]):
            script[c] = f[1]
    names = set()
    for f in ucd_lines("ArabicShaping.txt"):
        if f[2] in ("D", "L", "R") and script.get(int(f[0], 16)) not in (None, "Common", "Inherited"):
            names.add(script[int(f[0], 16)])
    for f in ucd_lines("UnicodeData.txt"):
        if f[3] == "9" and script.get(int(f[0], 16)) not in (None, "Common", "Inherited"):
            names.add(script[int(f[0], 16)])
    return script, names


def script_letters(gc):
    script, names = joining_scripts()
    aliases = {}
    for f in ucd_lines("PropertyValueAliases.txt"):
        if f[0] == "sc":
            aliases[f[1]] = f[2]
    short = {k for k, v in aliases.items() if v in names}
    out = set()
    for c, s in script.items():
        if s in names and gc.get(c, "Cn")[0] in "LM":
            out.add(c)
    for f in ucd_lines("ScriptExtensions.txt"):  # marks shared by several scripts
        if short & set(f[1].split()):
            out.update(c for c in cps(f[0]) if gc.get(c, "Cn")[0] in "LM")
    return out, sorted(names)


def ranges(points):
    out = []
    for c in sorted(points):
        if out and out[-1][1] + 1 == c:
            out[-1][1] = c
        else:
            out.append([c, c])
    return out


def flow(points):
    items = ["0x%04X" % lo if lo == hi else "[0x%04X, 0x%04X]" % (lo, hi) for lo, hi in ranges(points)]
    lines, line = [], ""
    for it in items:
        if line and len(line) + len(it) > 88:
            lines.append(line)
            line = ""
        line += (", " if line else "") + it
    lines.append(line)
    return "[" + (",\n    ").join(lines) + "]"


def main():
    gc = general_categories()
    white = prop("PropList.txt", "White_Space")
    joining, names = script_letters(gc)
    classes = [
        ("tag", "the Tags block (UTS #51 tag sequences; ASCII smuggling)", set(range(0xE0000, 0xE0080))),
        ("bidi-override", "embeddings, overrides and PDF (UAX #9 section 2.1-2.3; CVE-2021-42574)",
         set(range(0x202A, 0x202F))),
        ("bidi-isolate", "isolates (UAX #9 section 2.4-2.5)", set(range(0x2066, 0x206A))),
        ("bidi-mark", "implicit marks LRM, RLM, ALM (UAX #9 section 2.6)", {0x200E, 0x200F, 0x061C}),
        ("c0", "C0 controls but TAB, LF and CR", set(range(0x20)) - {0x09, 0x0A, 0x0D}),
        ("del-c1", "DEL and the C1 controls", {0x7F} | set(range(0x80, 0xA0))),
        ("escape", "ESC and the 8-bit CSI and OSC: they start ECMA-48 control sequences",
         {0x1B, 0x9B, 0x9D}),
        ("default-ignorable", "Default_Ignorable_Code_Point (DerivedCoreProperties.txt)",
         prop("DerivedCoreProperties.txt", "Default_Ignorable_Code_Point")),
        ("invisible", "Default_Ignorable_Code_Point but the tag characters, the bidirectional "
         "controls and marks (classes of their own) and SOFT HYPHEN U+00AD (shown where a line "
         "breaks, written by hyphenation)",
         prop("DerivedCoreProperties.txt", "Default_Ignorable_Code_Point")
         - set(range(0xE0000, 0xE0080)) - set(range(0x202A, 0x202F)) - set(range(0x2066, 0x206A))
         - {0x200E, 0x200F, 0x061C, 0x00AD}),
        ("format", "General_Category Cf (extracted/DerivedGeneralCategory.txt)",
         {c for c, v in gc.items() if v == "Cf"}),
        ("extended-pictographic", "Extended_Pictographic (emoji/emoji-data.txt)",
         prop("emoji/emoji-data.txt", "Extended_Pictographic")),
        ("emoji-modifier", "Emoji_Modifier, the skin tones (emoji/emoji-data.txt)",
         prop("emoji/emoji-data.txt", "Emoji_Modifier")),
        ("variation-selector-16", "VS16, emoji presentation", {0xFE0F}),
        ("joining-letters", "letters and marks of the scripts where ZWJ/ZWNJ may stand between "
         "letters (UAX #31 section 2.3): " + ", ".join(names), joining),
        ("rtl-letter", "assigned code points of Bidi_Class R or AL (extracted/DerivedBidiClass.txt)",
         {c for c in prop("extracted/DerivedBidiClass.txt", "R") | prop("extracted/DerivedBidiClass.txt", "AL")
          if gc.get(c, "Cn") != "Cn"}),
        ("space-like", "White_Space (PropList.txt)", white),
        ("line-break", "White_Space that breaks a line: LF, VT, FF, CR, NEL, LS, PS",
         {0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029}),
    ]
    v = version()
    print("# Generated by tools/gen-unicode-classes.py from the Unicode Character Database %s;" % v)
    print("# do not edit: run the generator again (rules-yaml/README.md, \"Data files\").")
    print("kind: unicode-classes")
    print("unicode-version: %s" % v)
    print("classes:")
    for name, why, points in classes:
        for line in textwrap.wrap(why, 88):
            print("  # %s" % line)
        print("  %s: %s" % (name, flow(points)))
    print("sequences:")
    print("  # UTS #51 ED-16: ZWJ between emoji elements (an emoji, with its VS16 or skin tone)")
    print("  emoji-zwj: {chars: [0x200D], after: [extended-pictographic, emoji-modifier, variation-selector-16],")
    print("              before: extended-pictographic}")
    print("  # UTS #51 ED-9: a variation selector after an emoji chooses its presentation")
    print("  emoji-presentation: {chars: [0xFE0E, 0xFE0F], after: extended-pictographic}")
    print("  # UTS #51 ED-14c: keycap sequences, digit # * then VS16 then U+20E3")
    print("  emoji-keycap: {chars: [0xFE0F], after: [0x23, 0x2A, [0x30, 0x39]], before: [0x20E3]}")
    print("  # UTS #51 ED-14a: a subdivision flag, U+1F3F4, tag digits and letters, CANCEL TAG")
    print("  emoji-tag: {run: [[0xE0030, 0xE0039], [0xE0061, 0xE007A]], after: [0x1F3F4], end: [0xE007F],")
    print("              min: 2, max: 7}")
    print("  # UAX #31 section 2.3: ZWNJ and ZWJ between letters (and marks) of joining scripts")
    print("  joiner-in-script: {chars: [0x200C, 0x200D], after: joining-letters, before: joining-letters}")
    print("  # UAX #9 section 2.6: an implicit mark beside right-to-left text")
    print("  mark-beside-rtl: {chars: bidi-mark, next-to: rtl-letter}")


main()
