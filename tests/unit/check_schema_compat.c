/* check_schema_compat.c - the JSON Schema compatibility engine (schema_compat.c): each
 * kind of change, in the dialects where the keyword differs, as the exact list of
 * (kind, keyword, old_at, new_at, detail); what is no change (annotations, reordering);
 * references, cycles, deep nesting and the bound on pairs. Test JSON is written with '
 * for " (and so are the expected details). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "schema/schema_compat.h"

static char *dq(const char *text)
{
    char *s = xstrdup(text);
    for (char *p = s; *p; p++)
        if (*p == '\'') *p = '"';
    return s;
}

static json_t *J(const char *text)
{
    char *s = dq(text);
    json_error_t err;
    json_t *j = json_loads(s, JSON_DECODE_ANY, &err);
    if (!j) ck_abort_msg("bad test JSON: %s: %s", s, err.text);
    free(s);
    return j;
}

/* One line a change: kind|keyword|old_at|new_at|detail */
static int collect(const struct schema_change *c, void *arg)
{
    buf_addf(arg, "%s|%s|%s|%s|%s\n", schema_change_kind_name(c->kind), c->keyword, c->old_at,
             c->new_at, c->detail);
    return 0;
}

static void expect_at(int line, enum schema_dialect d, const char *old, const char *new,
                      const char *want)
{
    json_t *o = J(old), *n = J(new);
    struct buf got = BUF_INIT;
    size_t k = schema_compat_compare(o, n, d, collect, &got);
    char *w = dq(want);
    ck_assert_msg(!strcmp(buf_str(&got), w), "line %d: %s -> %s\ngot:\n%swant:\n%s", line, old, new,
                  buf_str(&got), w);
    size_t lines = 0;
    for (const char *p = buf_str(&got); *p; p++) lines += *p == '\n';
    ck_assert_msg(k == lines, "line %d: returned %zu for %zu changes", line, k, lines);
    free(w);
    buf_release(&got);
    json_decref(o);
    json_decref(n);
}
#define EXPECT(old, new, want) expect_at(__LINE__, SCHEMA_DRAFT2020_12, old, new, want)
#define EXPECT_D(d, old, new, want) expect_at(__LINE__, d, old, new, want)

START_TEST(type_narrowed_and_widened)
{
    EXPECT("{'type':['string','number']}", "{'type':'string'}",
           "type-narrowed|type|/type|/type|type narrowed from ['string','number'] to 'string'\n");
    EXPECT("{'type':'string'}", "{'type':['number','string']}",
           "type-widened|type|/type|/type|type widened from 'string' to ['number','string']\n");
    /* integer is a subset of number */
    EXPECT("{'type':'number'}", "{'type':'integer'}",
           "type-narrowed|type|/type|/type|type narrowed from 'number' to 'integer'\n");
    EXPECT("{'type':'integer'}", "{'type':'number'}",
           "type-widened|type|/type|/type|type widened from 'integer' to 'number'\n");
    /* added where OLD had none; removed */
    EXPECT("{'properties':{'a':{}}}", "{'properties':{'a':{'type':'string'}}}",
           "type-narrowed|type|/properties/a|/properties/a/type|type narrowed from any to "
           "'string'\n");
    EXPECT("{'type':'string'}", "{}",
           "type-widened|type|/type||type widened from 'string' to any\n");
    /* both ways: reported twice */
    EXPECT("{'type':'string'}", "{'type':'number'}",
           "type-narrowed|type|/type|/type|type changed from 'string' to 'number'\n"
           "type-widened|type|/type|/type|type changed from 'string' to 'number'\n");
    /* the same set of types written otherwise */
    EXPECT("{'type':['integer','number']}", "{'type':'number'}", "");
    /* a string that became an array of strings: the type is the change; the array's
     * keywords and the string's concern no value both admit, so they are not compared */
    EXPECT("{'type':'string','maxLength':10}",
           "{'type':'array','items':{'type':'string'},'minItems':1}",
           "type-narrowed|type|/type|/type|type changed from 'string' to 'array'\n"
           "type-widened|type|/type|/type|type changed from 'string' to 'array'\n");
    /* a type that keeps strings: their bounds are still compared */
    EXPECT("{'type':'string','maxLength':10}", "{'type':['string','null'],'maxLength':5}",
           "type-widened|type|/type|/type|type widened from 'string' to ['string','null']\n"
           "bound-tightened|maxLength|/maxLength|/maxLength|maxLength 10 -> 5\n");
}
END_TEST

/* The roots judge objects only (a tool's arguments): a root type that only adds or drops
 * other types is no change; below the root, types count as ever. */
static void expect_root(int line, const char *old, const char *new, const char *want)
{
    json_t *o = J(old), *n = J(new);
    struct buf got = BUF_INIT;
    schema_compat_compare_root(o, n, SCHEMA_DRAFT2020_12, "object", collect, &got);
    char *w = dq(want);
    ck_assert_msg(!strcmp(buf_str(&got), w), "line %d: %s -> %s\ngot:\n%swant:\n%s", line, old, new,
                  buf_str(&got), w);
    free(w);
    buf_release(&got);
    json_decref(o);
    json_decref(n);
}

START_TEST(root_type)
{
    expect_root(__LINE__, "{}", "{'type':'object'}", "");
    expect_root(__LINE__, "{'type':['object','null']}", "{'type':'object'}", "");
    expect_root(__LINE__, "{'type':'object'}", "{'type':'string'}",
                "type-narrowed|type|/type|/type|type narrowed from 'object' to 'string'\n");
    expect_root(__LINE__, "{'properties':{'a':{}}}", "{'properties':{'a':{'type':'string'}}}",
                "type-narrowed|type|/properties/a|/properties/a/type|type narrowed from any to "
                "'string'\n");
    /* without a root type, the same root change narrows */
    EXPECT("{}", "{'type':'object'}",
           "type-narrowed|type||/type|type narrowed from any to 'object'\n");
}
END_TEST

/* A union narrowed to one of its members, or a schema widened into a union of itself and
 * others: the other alternatives are the change, nothing else. */
START_TEST(union_collapsed)
{
    EXPECT("{'anyOf':[{'type':'string'},{'type':'array','items':{'type':'string'}}],"
           "'description':'a command'}",
           "{'type':'array','items':{'type':'string'},'description':'the command'}",
           "alternative-removed|anyOf|/anyOf/0||anyOf alternative {'type':'string'} removed "
           "(the schema is its alternative 1 alone)\n");
    EXPECT("{'type':'string'}", "{'oneOf':[{'type':'string'},{'type':'null'}]}",
           "alternative-added|oneOf||/oneOf/1|oneOf alternative {'type':'null'} added (the "
           "schema was its alternative 0 alone)\n");
    /* no alternative is the other side: compared keyword by keyword, as before */
    EXPECT("{'anyOf':[{'type':'object'},{'type':'null'}]}", "{'type':'string'}",
           "type-narrowed|type||/type|type narrowed from any to 'string'\n"
           "unprovable|anyOf|/anyOf||anyOf [{'type':'object'},{'type':'null'}] removed\n");
}
END_TEST

START_TEST(boolean_schemas)
{
    EXPECT("true", "{'type':'string'}",
           "type-narrowed|type||/type|type narrowed from any to 'string'\n");
    EXPECT("{'properties':{'a':{'type':'string'}}}", "{'properties':{'a':false}}",
           "type-narrowed|schema|/properties/a|/properties/a|schema became false: it admits "
           "nothing\n");
    EXPECT("false", "true", "type-widened|schema|||schema was false: it admitted nothing\n");
    EXPECT("true", "{}", "");
    EXPECT("{'description':'anything'}", "true", "");
    /* what is no schema at all, when it changed */
    EXPECT("{'properties':{'a':1}}", "{'properties':{'a':2}}",
           "unprovable|schema|/properties/a|/properties/a|schema changed from 1 to 2\n");
}
END_TEST

START_TEST(enum_changes)
{
    EXPECT("{'type':'string'}", "{'type':'string','enum':['a','b']}",
           "enum-added|enum||/enum|enum ['a','b'] added\n");
    EXPECT("{'enum':['a','b']}", "{}", "enum-removed|enum|/enum||enum ['a','b'] removed\n");
    EXPECT("{'enum':['fast','slow',1]}", "{'enum':[1.0,'slow','medium']}",
           "enum-value-added|enum|/enum|/enum/2|enum value 'medium' added\n"
           "enum-value-removed|enum|/enum/0|/enum|enum value 'fast' removed\n");
    EXPECT("{'enum':['a','b',{'x':1,'y':2}]}", "{'enum':[{'y':2,'x':1},'b','a']}", "");
}
END_TEST

START_TEST(const_changes)
{
    EXPECT("{}", "{'const':'v1'}", "const-added|const||/const|const 'v1' added\n");
    EXPECT("{'const':'v1'}", "{}", "const-removed|const|/const||const 'v1' removed\n");
    EXPECT("{'const':'v1'}", "{'const':'v2'}",
           "const-changed|const|/const|/const|const 'v1' -> 'v2'\n");
    EXPECT("{'const':1}", "{'const':1.0}", "");
    /* draft-04 has no const: an unknown keyword, an annotation */
    EXPECT_D(SCHEMA_DRAFT04, "{}", "{'const':'v1'}", "");
}
END_TEST

START_TEST(length_and_count_bounds)
{
    EXPECT("{'maxLength':100}", "{'maxLength':50}",
           "bound-tightened|maxLength|/maxLength|/maxLength|maxLength 100 -> 50\n");
    EXPECT("{'maxLength':50}", "{'maxLength':100}",
           "bound-loosened|maxLength|/maxLength|/maxLength|maxLength 50 -> 100\n");
    EXPECT("{}", "{'minLength':1}", "bound-tightened|minLength||/minLength|minLength 1 added\n");
    EXPECT("{'maxItems':3}", "{}", "bound-loosened|maxItems|/maxItems||maxItems 3 removed\n");
    EXPECT("{'minItems':1,'maxProperties':4}", "{'minItems':2,'maxProperties':5}",
           "bound-tightened|minItems|/minItems|/minItems|minItems 1 -> 2\n"
           "bound-loosened|maxProperties|/maxProperties|/maxProperties|maxProperties 4 -> 5\n");
    EXPECT("{'minProperties':1}", "{'minProperties':0}",
           "bound-loosened|minProperties|/minProperties|/minProperties|minProperties 1 -> 0\n");
    /* a minimum of 0 is no bound */
    EXPECT("{}", "{'minLength':0}", "");
    EXPECT("{'uniqueItems':false}", "{'uniqueItems':true}",
           "bound-tightened|uniqueItems|/uniqueItems|/uniqueItems|uniqueItems false -> true\n");
    EXPECT("{'uniqueItems':true}", "{}",
           "bound-loosened|uniqueItems|/uniqueItems||uniqueItems true -> false\n");
    EXPECT("{}", "{'uniqueItems':false}", "");
}
END_TEST

START_TEST(numeric_bounds)
{
    EXPECT("{'maximum':10}", "{'maximum':5}",
           "bound-tightened|maximum|/maximum|/maximum|maximum 10 -> 5\n");
    EXPECT("{'minimum':1}", "{}", "bound-loosened|minimum|/minimum||minimum 1 removed\n");
    EXPECT("{}", "{'exclusiveMaximum':0}",
           "bound-tightened|exclusiveMaximum||/exclusiveMaximum|exclusiveMaximum 0 added\n");
    /* the effective bound: 5 inclusive to 5 exclusive is stricter */
    EXPECT("{'minimum':5}", "{'exclusiveMinimum':5}",
           "bound-tightened|exclusiveMinimum|/minimum|/exclusiveMinimum|minimum 5 -> "
           "exclusiveMinimum 5\n");
    /* a bound another one makes redundant does not count */
    EXPECT("{'minimum':5,'exclusiveMinimum':10}", "{'minimum':6,'exclusiveMinimum':10}", "");
    EXPECT("{'maximum':1.5}", "{'maximum':1.50}", "");
    EXPECT("{'multipleOf':2}", "{'multipleOf':4}",
           "bound-tightened|multipleOf|/multipleOf|/multipleOf|multipleOf 2 -> 4\n");
    EXPECT("{'multipleOf':0.5}", "{'multipleOf':0.25}",
           "bound-loosened|multipleOf|/multipleOf|/multipleOf|multipleOf 0.5 -> 0.25\n");
    EXPECT("{'multipleOf':2}", "{'multipleOf':3}",
           "bound-tightened|multipleOf|/multipleOf|/multipleOf|multipleOf 2 -> 3\n"
           "bound-loosened|multipleOf|/multipleOf|/multipleOf|multipleOf 2 -> 3\n");
    EXPECT("{}", "{'multipleOf':1}",
           "bound-tightened|multipleOf||/multipleOf|multipleOf 1 added\n");
    /* a bound of the wrong type */
    EXPECT("{'maxLength':5}", "{'maxLength':'5'}",
           "unprovable|maxLength|/maxLength|/maxLength|maxLength changed from 5 to '5'\n");
}
END_TEST

START_TEST(draft04_boolean_exclusive)
{
    const char *d4 = "'$schema':'http://json-schema.org/draft-04/schema#'";
    char o[256], n[256];
    snprintf(o, sizeof o, "{%s,'maximum':5}", d4);
    snprintf(n, sizeof n, "{%s,'maximum':5,'exclusiveMaximum':true}", d4);
    EXPECT(o, n,
           "bound-tightened|exclusiveMaximum|/maximum|/exclusiveMaximum|maximum 5 -> maximum 5 "
           "(exclusive)\n");
    EXPECT(n, o,
           "bound-loosened|exclusiveMaximum|/exclusiveMaximum|/maximum|maximum 5 (exclusive) -> "
           "maximum 5\n");
    /* the flag alone bounds nothing */
    snprintf(o, sizeof o, "{%s}", d4);
    snprintf(n, sizeof n, "{%s,'exclusiveMinimum':true}", d4);
    EXPECT(o, n, "");
    /* the default dialect applies to a root without $schema */
    EXPECT_D(SCHEMA_DRAFT04, "{'minimum':1,'exclusiveMinimum':true}", "{'minimum':2}",
             "bound-tightened|minimum|/minimum|/minimum|minimum 1 (exclusive) -> minimum 2\n");
    /* draft-04 OLD, 2020-12 NEW: each side read in its dialect */
    snprintf(o, sizeof o, "{%s,'minimum':5,'exclusiveMinimum':true}", d4);
    EXPECT(o, "{'exclusiveMinimum':5}", "");
}
END_TEST

START_TEST(pattern_changes)
{
    EXPECT("{'type':'string'}", "{'type':'string','pattern':'^[a-z]+$'}",
           "pattern-added|pattern||/pattern|pattern '^[a-z]+$' added\n");
    EXPECT("{'pattern':'^a'}", "{}", "pattern-removed|pattern|/pattern||pattern '^a' removed\n");
    EXPECT("{'pattern':'^a'}", "{'pattern':'^b'}",
           "unprovable|pattern|/pattern|/pattern|pattern changed from '^a' to '^b'\n");
}
END_TEST

START_TEST(required_changes)
{
    EXPECT("{'properties':{'mode':{},'id':{}},'required':['id']}",
           "{'properties':{'mode':{},'id':{}},'required':['id','mode']}",
           "required-added|required|/required|/required/1|property 'mode' is now required\n");
    EXPECT("{'required':['a','b']}", "{}",
           "required-removed|required|/required/0||property 'a' is no longer required\n"
           "required-removed|required|/required/1||property 'b' is no longer required\n");
    EXPECT("{}", "{'required':['a']}",
           "required-added|required||/required/0|property 'a' is now required\n");
    EXPECT("{'required':['a','b']}", "{'required':['b','a','a']}", "");
}
END_TEST

START_TEST(properties_added_and_removed)
{
    EXPECT("{'properties':{'a':{}}}", "{'properties':{'a':{},'b':{'type':'string'}}}",
           "property-added|properties|/properties|/properties/b|property 'b' added\n");
    EXPECT("{}", "{'properties':{'b':{}}}",
           "property-added|properties||/properties/b|property 'b' added\n");
    /* OLD said what such a member must be: that is compared with the new property */
    EXPECT("{'additionalProperties':{'type':'string'}}",
           "{'properties':{'b':{'type':'integer'}},'additionalProperties':{'type':'string'}}",
           "property-added|properties||/properties/b|property 'b' added\n"
           "type-narrowed|type|/additionalProperties/type|/properties/b/type|type changed from "
           "'string' to 'integer'\n"
           "type-widened|type|/additionalProperties/type|/properties/b/type|type changed from "
           "'string' to 'integer'\n");
    /* removed, NEW still open */
    EXPECT("{'properties':{'a':{},'mode':{'type':'string'}}}", "{'properties':{'a':{}}}",
           "property-removed|properties|/properties/mode|/properties|property 'mode' removed\n");
    /* removed under additionalProperties false */
    EXPECT("{'properties':{'a':{},'mode':{}},'additionalProperties':false}",
           "{'properties':{'a':{}},'additionalProperties':false}",
           "property-removed-closed|properties|/properties/mode|/properties|property 'mode' "
           "removed, and additionalProperties is false\n");
    /* removed, NEW's additionalProperties the same schema: still admitted alike */
    EXPECT("{'properties':{'n':{'type':'string'}},'additionalProperties':{'type':'string'}}",
           "{'additionalProperties':{'type':'string'}}",
           "property-removed|properties|/properties/n||property 'n' removed\n");
    /* a different schema: not decided */
    EXPECT("{'properties':{'n':{'type':'string'}},'additionalProperties':{'type':'integer'}}",
           "{'additionalProperties':{'type':'integer'}}",
           "unprovable|additionalProperties|/properties/n|/additionalProperties|property 'n' "
           "removed; whether additionalProperties admits it is not decided\n");
    EXPECT("{'properties':{'n':{}},'patternProperties':{'^x':{}}}",
           "{'patternProperties':{'^x':{}}}",
           "unprovable|patternProperties|/properties/n|/patternProperties|property 'n' "
           "removed; whether patternProperties admits it is not decided\n");
    /* nested objects */
    EXPECT("{'properties':{'addr':{'properties':{'zip':{'type':'string','maxLength':10}}}}}",
           "{'properties':{'addr':{'properties':{'zip':{'type':'string','maxLength':5}}}}}",
           "bound-tightened|maxLength|/properties/addr/properties/zip/maxLength|/properties/addr/"
           "properties/zip/maxLength|maxLength 10 -> 5\n");
    /* escaped member names in the pointers */
    EXPECT("{'properties':{'a/b':{'type':'string'}}}", "{'properties':{'a/b':{}}}",
           "type-widened|type|/properties/a~1b/type|/properties/a~1b|type widened from 'string' "
           "to any\n");
}
END_TEST

START_TEST(additional_properties)
{
    EXPECT("{'properties':{'a':{}}}", "{'properties':{'a':{}},'additionalProperties':false}",
           "additional-closed|additionalProperties||/additionalProperties|additionalProperties "
           "absent -> false\n");
    EXPECT("{'additionalProperties':true}", "{'additionalProperties':{'type':'string'}}",
           "additional-closed|additionalProperties|/additionalProperties|/additionalProperties|"
           "additionalProperties true -> {'type':'string'}\n");
    EXPECT("{'additionalProperties':false}", "{}",
           "additional-opened|additionalProperties|/additionalProperties||additionalProperties "
           "false -> absent\n");
    EXPECT("{'additionalProperties':{'type':'string'}}", "{'additionalProperties':true}",
           "additional-opened|additionalProperties|/additionalProperties|/additionalProperties|"
           "additionalProperties {'type':'string'} -> true\n");
    EXPECT("{'additionalProperties':{'type':'string'}}",
           "{'additionalProperties':{'type':'string','maxLength':3}}",
           "bound-tightened|maxLength|/additionalProperties|/additionalProperties/maxLength|"
           "maxLength 3 added\n");
    EXPECT("{'additionalProperties':{}}", "{'additionalProperties':true}", "");
}
END_TEST

START_TEST(alternatives)
{
    EXPECT("{'anyOf':[{'type':'string'},{'type':'integer'}]}",
           "{'anyOf':[{'type':'integer'},{'type':'string'},{'type':'null'}]}",
           "alternative-added|anyOf|/anyOf|/anyOf/2|anyOf alternative {'type':'null'} added\n");
    EXPECT("{'oneOf':[{'type':'string'},{'type':'integer'}]}", "{'oneOf':[{'type':'string'}]}",
           "alternative-removed|oneOf|/oneOf/1|/oneOf|oneOf alternative {'type':'integer'} "
           "removed\n");
    /* an edit: as many unmatched on each side */
    EXPECT("{'anyOf':[{'type':'string'},{'type':'integer','minimum':0}]}",
           "{'anyOf':[{'type':'string'},{'type':'integer','minimum':1}]}",
           "unprovable|anyOf|/anyOf|/anyOf|anyOf: 1 alternative edited\n");
    EXPECT("{'anyOf':[{'type':'string'},{'type':'integer'}]}",
           "{'anyOf':[{'type':'integer'},{'type':'string'}]}", "");
    /* added whole */
    EXPECT("{'type':'string'}", "{'type':'string','anyOf':[{'minLength':1},{'const':''}]}",
           "unprovable|anyOf||/anyOf|anyOf [{'minLength':1},{'const':''}] added\n");
}
END_TEST

START_TEST(unprovable_keywords)
{
    EXPECT("{'not':{'type':'string'}}", "{'not':{'type':'integer'}}",
           "unprovable|not|/not|/not|not changed from {'type':'string'} to {'type':'integer'}\n");
    EXPECT("{}", "{'if':{'required':['a']},'then':{'required':['b']}}",
           "unprovable|if||/if|if {'required':['a']} added\n"
           "unprovable|then||/then|then {'required':['b']} added\n");
    EXPECT("{'allOf':[{'type':'string'}]}", "{}",
           "unprovable|allOf|/allOf||allOf [{'type':'string'}] removed\n");
    EXPECT("{'format':'email'}", "{'format':'uri'}",
           "unprovable|format|/format|/format|format changed from 'email' to 'uri'\n");
    EXPECT("{'dependentRequired':{'a':['b']}}", "{'dependentRequired':{'a':['b','c']}}",
           "unprovable|dependentRequired|/dependentRequired|/dependentRequired|dependentRequired "
           "changed from {'a':['b']} to {'a':['b','c']}\n");
    EXPECT("{}", "{'propertyNames':{'maxLength':3}}",
           "unprovable|propertyNames||/propertyNames|propertyNames {'maxLength':3} added\n");
    EXPECT("{'contains':{'type':'string'}}", "{'contains':{'type':'number'}}",
           "unprovable|contains|/contains|/contains|contains changed from {'type':'string'} to "
           "{'type':'number'}\n");
    EXPECT("{'patternProperties':{'^a':{}}}", "{'patternProperties':{'^b':{}}}",
           "unprovable|patternProperties|/patternProperties|/patternProperties|patternProperties "
           "changed from {'^a':{}} to {'^b':{}}\n");
    EXPECT("{'$ref':'https://example.com/a.json'}", "{'$ref':'https://example.com/b.json'}",
           "unprovable|$ref|/$ref|/$ref|$ref changed from 'https://example.com/a.json' to "
           "'https://example.com/b.json'\n");
    /* the same text of another document: nothing seen changed */
    EXPECT("{'$ref':'https://example.com/a.json','title':'a'}",
           "{'$ref':'https://example.com/a.json','title':'b'}", "");
}
END_TEST

START_TEST(annotations_are_no_change)
{
    EXPECT("{'title':'a','description':'old','examples':[1],'default':1,'$comment':'x',"
           "'deprecated':false,'readOnly':false,'writeOnly':false,'x-internal':1,'nullable':true,"
           "'type':'integer'}",
           "{'title':'b','description':'new','examples':[2],'default':2,'$comment':'y',"
           "'deprecated':true,'readOnly':true,'writeOnly':true,'x-internal':2,'nullable':false,"
           "'type':'integer','minimun':3}",
           "");
    /* an unused definition is not compared */
    EXPECT("{'$defs':{'A':{'type':'string'}}}", "{'$defs':{'A':{'type':'integer'}}}", "");
}
END_TEST

START_TEST(reordering_is_no_change)
{
    EXPECT("{'type':'object','properties':{'a':{'type':['string','null']},'b':{'enum':[1,2,3]}},"
           "'required':['a','b']}",
           "{'required':['b','a'],'properties':{'b':{'enum':[3,1,2]},'a':{'type':['null','string']}"
           "},'type':'object'}",
           "");
}
END_TEST

START_TEST(items_in_both_dialects)
{
    /* one schema for every item: 2020-12 and draft-07 alike */
    EXPECT("{'type':'array','items':{'type':'string'}}",
           "{'type':'array','items':{'type':'integer'}}",
           "type-narrowed|type|/items/type|/items/type|type changed from 'string' to 'integer'\n"
           "type-widened|type|/items/type|/items/type|type changed from 'string' to 'integer'\n");
    EXPECT_D(SCHEMA_DRAFT07, "{'items':{'maxLength':4}}", "{'items':{'maxLength':2}}",
             "bound-tightened|maxLength|/items/maxLength|/items/maxLength|maxLength 4 -> 2\n");
    /* arrays of objects */
    EXPECT("{'items':{'properties':{'id':{}},'required':['id']}}",
           "{'items':{'properties':{'id':{}},'required':['id','name']}}",
           "required-added|required|/items/required|/items/required/1|property 'name' is now "
           "required\n");
    /* positional: prefixItems (2020-12), an items array (draft-07) */
    EXPECT("{'prefixItems':[{'type':'string'},{'type':'integer'}]}",
           "{'prefixItems':[{'type':'string'},{'type':'number'}]}",
           "type-widened|type|/prefixItems/1/type|/prefixItems/1/type|type widened from 'integer' "
           "to 'number'\n");
    EXPECT_D(SCHEMA_DRAFT07, "{'items':[{'type':'string'},{'type':'integer'}]}",
             "{'items':[{'type':'string'},{'type':'number'}]}",
             "type-widened|type|/items/1/type|/items/1/type|type widened from 'integer' to "
             "'number'\n");
    /* the rest: items after prefixItems, additionalItems after an items array */
    EXPECT("{'prefixItems':[{}],'items':false}", "{'prefixItems':[{}]}",
           "type-widened|schema|/items||schema was false: it admitted nothing\n");
    EXPECT_D(SCHEMA_DRAFT07, "{'items':[{}]}", "{'items':[{}],'additionalItems':false}",
             "type-narrowed|schema||/additionalItems|schema became false: it admits nothing\n");
    /* a position NEW adds is compared with OLD's rest */
    EXPECT("{'prefixItems':[{}],'items':{'type':'string'}}",
           "{'prefixItems':[{},{'type':'string','maxLength':2}],'items':{'type':'string'}}",
           "bound-tightened|maxLength|/items|/prefixItems/1/maxLength|maxLength 2 added\n");
    /* 2019-09: an items array, then additionalItems */
    EXPECT_D(SCHEMA_DRAFT2019_09, "{'items':[{}],'additionalItems':{'type':'string'}}",
             "{'items':[{}],'additionalItems':{'type':'string','minLength':2}}",
             "bound-tightened|minLength|/additionalItems|/additionalItems/minLength|minLength 2 "
             "added\n");
    /* draft-07's prefixItems is an unknown keyword; additionalItems is 2020-12's */
    EXPECT_D(SCHEMA_DRAFT07, "{}", "{'prefixItems':[{'type':'string'}]}", "");
    EXPECT("{}", "{'additionalItems':false}", "");
    /* the same tuple written in each dialect */
    EXPECT("{'$schema':'http://json-schema.org/draft-07/schema#','items':[{'type':'string'}],"
           "'additionalItems':false}",
           "{'prefixItems':[{'type':'string'}],'items':false}", "");
}
END_TEST

START_TEST(references)
{
    /* the place is where the keyword really is */
    EXPECT("{'properties':{'home':{'$ref':'#/$defs/Addr'}},"
           "'$defs':{'Addr':{'properties':{'zip':{'type':'string'}}}}}",
           "{'properties':{'home':{'$ref':'#/$defs/Addr'}},"
           "'$defs':{'Addr':{'properties':{'zip':{'type':'string','maxLength':5}}}}}",
           "bound-tightened|maxLength|/$defs/Addr/properties/zip|/$defs/Addr/properties/zip/"
           "maxLength|maxLength 5 added\n");
    /* two references to one definition: reported once */
    EXPECT("{'properties':{'home':{'$ref':'#/$defs/Addr'},'work':{'$ref':'#/$defs/Addr'}},"
           "'$defs':{'Addr':{'type':'object'}}}",
           "{'properties':{'home':{'$ref':'#/$defs/Addr'},'work':{'$ref':'#/$defs/Addr'}},"
           "'$defs':{'Addr':{'type':'string'}}}",
           "type-narrowed|type|/$defs/Addr/type|/$defs/Addr/type|type changed from 'object' to "
           "'string'\n"
           "type-widened|type|/$defs/Addr/type|/$defs/Addr/type|type changed from 'object' to "
           "'string'\n");
    /* draft-07: definitions, and the members beside $ref are ignored */
    EXPECT_D(SCHEMA_DRAFT07,
             "{'properties':{'a':{'$ref':'#/definitions/A','maxLength':1}},"
             "'definitions':{'A':{'enum':['x','y']}}}",
             "{'properties':{'a':{'$ref':'#/definitions/A','maxLength':9}},"
             "'definitions':{'A':{'enum':['x']}}}",
             "enum-value-removed|enum|/definitions/A/enum/1|/definitions/A/enum|enum value 'y' "
             "removed\n");
    /* inlined on one side, referenced on the other */
    EXPECT("{'properties':{'a':{'$ref':'#/$defs/A'}},'$defs':{'A':{'type':'string'}}}",
           "{'properties':{'a':{'type':'string'}}}", "");
    /* a renamed definition is no change */
    EXPECT("{'items':{'$ref':'#/$defs/A'},'$defs':{'A':{'type':'string'}}}",
           "{'items':{'$ref':'#/$defs/B'},'$defs':{'B':{'type':'string'}}}", "");
    /* a plain-name anchor */
    EXPECT("{'items':{'$ref':'#item'},'$defs':{'I':{'$anchor':'item','type':'string'}}}",
           "{'items':{'$ref':'#item'},'$defs':{'I':{'$anchor':'item','type':'null'}}}",
           "type-narrowed|type|/$defs/I/type|/$defs/I/type|type changed from 'string' to "
           "'null'\n"
           "type-widened|type|/$defs/I/type|/$defs/I/type|type changed from 'string' to 'null'\n");
    /* 2019-09 on: $ref with constraining siblings on both sides: targets, then siblings */
    EXPECT("{'properties':{'a':{'$ref':'#/$defs/A','maxLength':3}},'$defs':{'A':{'type':'string'}}"
           "}",
           "{'properties':{'a':{'$ref':'#/$defs/A','maxLength':2}},'$defs':{'A':{'type':'string',"
           "'minLength':1}}}",
           "bound-tightened|minLength|/$defs/A|/$defs/A/minLength|minLength 1 added\n"
           "bound-tightened|maxLength|/properties/a/maxLength|/properties/a/maxLength|maxLength 3 "
           "-> 2\n");
    /* 2019-09 on: $ref with constraining siblings on one side only: not decided (and the
     * siblings compared keyword by keyword with the other side) */
    EXPECT("{'$ref':'#/$defs/A','maxLength':3,'$defs':{'A':{'type':'string'}}}",
           "{'type':'string','maxLength':3}",
           "type-narrowed|type||/type|type narrowed from any to 'string'\n"
           "unprovable|$ref|/$ref||$ref '#/$defs/A' removed\n");
    /* an unresolvable local reference is compared by its text */
    EXPECT("{'$ref':'#/$defs/missing'}", "{'$ref':'#/$defs/gone'}",
           "unprovable|$ref|/$ref|/$ref|$ref changed from '#/$defs/missing' to '#/$defs/gone'\n");
    /* an alternative unchanged in text whose definition changed */
    EXPECT("{'anyOf':[{'$ref':'#/$defs/A'},{'type':'null'}],'$defs':{'A':{'maxLength':3}}}",
           "{'anyOf':[{'type':'null'},{'$ref':'#/$defs/A'}],'$defs':{'A':{'maxLength':2}}}",
           "bound-tightened|maxLength|/$defs/A/maxLength|/$defs/A/maxLength|maxLength 3 -> 2\n");
    /* not (an unprovable keyword) over a changed definition */
    EXPECT("{'not':{'$ref':'#/$defs/A'},'$defs':{'A':{'maxLength':3}}}",
           "{'not':{'$ref':'#/$defs/A'},'$defs':{'A':{'maxLength':2}}}",
           "unprovable|not|/not|/not|not unchanged, but a definition it references changed\n");
}
END_TEST

START_TEST(reference_cycles_end)
{
    /* a recursive tree: the cycle is compared once */
    const char *o = "{'$ref':'#/$defs/Node','$defs':{'Node':{'type':'object','properties':{"
                    "'kids':{'type':'array','items':{'$ref':'#/$defs/Node'}},"
                    "'name':{'type':'string'}}}}}";
    const char *n = "{'$ref':'#/$defs/Node','$defs':{'Node':{'type':'object','properties':{"
                    "'kids':{'type':'array','items':{'$ref':'#/$defs/Node'}},"
                    "'name':{'type':'string','maxLength':8}}}}}";
    EXPECT(o, n,
           "bound-tightened|maxLength|/$defs/Node/properties/name|/$defs/Node/properties/name/"
           "maxLength|maxLength 8 added\n");
    /* references that name each other and nothing else */
    EXPECT("{'$ref':'#/$defs/A','$defs':{'A':{'$ref':'#/$defs/B'},'B':{'$ref':'#/$defs/A'}}}",
           "{'$ref':'#/$defs/A','$defs':{'A':{'$ref':'#/$defs/B'},'B':{'$ref':'#/$defs/A'}},"
           "'title':'t'}",
           "");
    /* an unprovable keyword whose reference leads back to where it is */
    EXPECT("{'not':{'$ref':'#'},'type':'object'}", "{'not':{'$ref':'#'},'type':'string'}",
           "unprovable|not|/not|/not|not unchanged, but a definition it references changed\n"
           "type-narrowed|type|/type|/type|type changed from 'object' to 'string'\n"
           "type-widened|type|/type|/type|type changed from 'object' to 'string'\n");
    EXPECT("{'properties':{'a':{'$ref':'#'}}}",
           "{'properties':{'a':{'$ref':'#'}},'maxProperties':2}",
           "bound-tightened|maxProperties||/maxProperties|maxProperties 2 added\n");
}
END_TEST

/* {"properties":{"p":{"properties":{"p": ... {"type":T} ...}}}}, DEPTH levels */
static json_t *nested(int depth, const char *type)
{
    json_t *s = json_pack("{s:s}", "type", type);
    for (int i = 0; i < depth; i++) s = json_pack("{s:{s:o}}", "properties", "p", s);
    return s;
}

START_TEST(deep_nesting)
{
    json_t *o = nested(200, "string"), *n = nested(200, "integer");
    struct buf got = BUF_INIT;
    size_t k = schema_compat_compare(o, n, SCHEMA_DRAFT2020_12, collect, &got);
    ck_assert_uint_eq(k, 2);
    struct buf at = BUF_INIT;
    for (int i = 0; i < 200; i++) buf_adds(&at, "/properties/p");
    buf_adds(&at, "/type");
    ck_assert_msg(strstr(buf_str(&got), buf_str(&at)) != NULL, "%s", buf_str(&got));
    json_decref(o);
    json_decref(n);
    /* past the bound: one unprovable, no crash */
    o = nested(300, "string"), n = nested(300, "integer");
    buf_reset(&got);
    k = schema_compat_compare(o, n, SCHEMA_DRAFT2020_12, collect, &got);
    ck_assert_uint_eq(k, 1);
    ck_assert_msg(strstr(buf_str(&got), "unprovable|schema|") == buf_str(&got) &&
                      strstr(buf_str(&got), "too deeply nested to compare (more than 256 levels)"),
                  "%s", buf_str(&got));
    json_decref(o);
    json_decref(n);
    buf_release(&at);
    buf_release(&got);
}
END_TEST

START_TEST(bounded_pairs)
{
    /* 100001 properties that differ only in what is no change: every pair is compared */
    json_t *op = json_object(), *np = json_object();
    char name[32];
    for (int i = 0; i <= 100000; i++) {
        snprintf(name, sizeof name, "p%d", i);
        json_object_set_new(op, name, json_pack("{s:s}", "description", "old"));
        json_object_set_new(np, name, json_pack("{s:s}", "description", "new"));
    }
    json_t *o = json_pack("{s:o}", "properties", op), *n = json_pack("{s:o}", "properties", np);
    struct buf got = BUF_INIT;
    size_t k = schema_compat_compare(o, n, SCHEMA_DRAFT2020_12, collect, &got);
    ck_assert_uint_eq(k, 1);
    ck_assert_str_eq(buf_str(&got),
                     "unprovable|schema|||too large to compare (more than 100000 "
                     "subschema pairs)\n");
    /* equal schemas: nothing, whatever their size */
    buf_reset(&got);
    ck_assert_uint_eq(schema_compat_compare(o, o, SCHEMA_DRAFT2020_12, collect, &got), 0);
    json_t *copy = json_deep_copy(o);
    ck_assert_uint_eq(schema_compat_compare(o, copy, SCHEMA_DRAFT2020_12, collect, &got), 0);
    ck_assert_str_eq(buf_str(&got), "");
    json_decref(copy);
    json_decref(o);
    json_decref(n);
    buf_release(&got);
}
END_TEST

/* LEVELS of {"properties":{"a":X,"b":X}}, X the same value each time: 2^LEVELS leaves */
static json_t *laughs(int levels, const char *type)
{
    json_t *s = json_pack("{s:s}", "type", type);
    for (int i = 0; i < levels; i++) {
        json_t *props = json_pack("{s:O,s:O}", "a", s, "b", s);
        json_decref(s);
        s = json_pack("{s:o}", "properties", props);
    }
    return s;
}

START_TEST(shared_values_stay_linear)
{
    json_t *o = laughs(40, "string"), *n = laughs(40, "integer");
    struct buf got = BUF_INIT, want = BUF_INIT;
    for (int i = 0; i < 40; i++) buf_adds(&want, "/properties/a");
    char *at = xstrdup(buf_str(&want));
    buf_reset(&want);
    buf_addf(&want,
             "type-narrowed|type|%s/type|%s/type|type changed from \"string\" to \"integer\"\n", at,
             at);
    buf_addf(&want,
             "type-widened|type|%s/type|%s/type|type changed from \"string\" to \"integer\"\n", at,
             at);
    ck_assert_uint_eq(schema_compat_compare(o, n, SCHEMA_DRAFT2020_12, collect, &got), 2);
    ck_assert_str_eq(buf_str(&got), buf_str(&want));
    /* the same values as data: compared without expanding them, shown abridged */
    json_t *eo = json_pack("{s:[O]}", "enum", o), *en = json_pack("{s:[O]}", "enum", n);
    buf_reset(&got);
    ck_assert_uint_eq(schema_compat_compare(eo, en, SCHEMA_DRAFT2020_12, collect, &got), 2);
    ck_assert_str_eq(buf_str(&got),
                     "enum-value-added|enum|/enum|/enum/0|enum value {...} added\n"
                     "enum-value-removed|enum|/enum/0|/enum|enum value {...} removed\n");
    free(at);
    json_decref(eo);
    json_decref(en);
    json_decref(o);
    json_decref(n);
    buf_release(&got);
    buf_release(&want);
}
END_TEST

static int stop_at_first(const struct schema_change *c, void *arg)
{
    (*(int *)arg)++;
    return 1;
}

START_TEST(callback_stops)
{
    json_t *o = J("{'type':'string','maxLength':3,'pattern':'a'}"), *n = J("{'minLength':1}");
    int calls = 0;
    ck_assert_uint_eq(schema_compat_compare(o, n, SCHEMA_DRAFT2020_12, stop_at_first, &calls), 1);
    ck_assert_int_eq(calls, 1);
    ck_assert_uint_eq(schema_compat_compare(o, n, SCHEMA_DRAFT2020_12, NULL, NULL), 4);
    json_decref(o);
    json_decref(n);
}
END_TEST

START_TEST(kind_names)
{
    int n = 0;
    for (; schema_compat_kind_names[n]; n++) {
        ck_assert_int_eq(schema_change_kind_parse(schema_compat_kind_names[n]), n);
        ck_assert_str_eq(schema_change_kind_name((enum schema_change_kind)n),
                         schema_compat_kind_names[n]);
    }
    ck_assert_int_eq(n, SCHEMA_CHANGE_KIND_COUNT);
    ck_assert_str_eq(schema_change_kind_name(SCHEMA_CHANGE_TYPE_NARROWED), "type-narrowed");
    ck_assert_str_eq(schema_change_kind_name(SCHEMA_CHANGE_PROPERTY_REMOVED_CLOSED),
                     "property-removed-closed");
    ck_assert_str_eq(schema_change_kind_name(SCHEMA_CHANGE_UNPROVABLE), "unprovable");
    ck_assert_int_eq(schema_change_kind_parse("enum-value-removed"),
                     SCHEMA_CHANGE_ENUM_VALUE_REMOVED);
    ck_assert_int_eq(schema_change_kind_parse("type_narrowed"), -1);
    ck_assert_ptr_null(schema_change_kind_name(SCHEMA_CHANGE_KIND_COUNT));
    /* each name is its constant's */
    static const struct {
        enum schema_change_kind k;
        const char *name;
    } K[] = {{SCHEMA_CHANGE_TYPE_WIDENED, "type-widened"},
             {SCHEMA_CHANGE_ENUM_ADDED, "enum-added"},
             {SCHEMA_CHANGE_ENUM_REMOVED, "enum-removed"},
             {SCHEMA_CHANGE_ENUM_VALUE_ADDED, "enum-value-added"},
             {SCHEMA_CHANGE_CONST_ADDED, "const-added"},
             {SCHEMA_CHANGE_CONST_REMOVED, "const-removed"},
             {SCHEMA_CHANGE_CONST_CHANGED, "const-changed"},
             {SCHEMA_CHANGE_BOUND_TIGHTENED, "bound-tightened"},
             {SCHEMA_CHANGE_BOUND_LOOSENED, "bound-loosened"},
             {SCHEMA_CHANGE_PATTERN_ADDED, "pattern-added"},
             {SCHEMA_CHANGE_PATTERN_REMOVED, "pattern-removed"},
             {SCHEMA_CHANGE_REQUIRED_ADDED, "required-added"},
             {SCHEMA_CHANGE_REQUIRED_REMOVED, "required-removed"},
             {SCHEMA_CHANGE_PROPERTY_ADDED, "property-added"},
             {SCHEMA_CHANGE_PROPERTY_REMOVED, "property-removed"},
             {SCHEMA_CHANGE_ADDITIONAL_CLOSED, "additional-closed"},
             {SCHEMA_CHANGE_ADDITIONAL_OPENED, "additional-opened"},
             {SCHEMA_CHANGE_ALTERNATIVE_ADDED, "alternative-added"},
             {SCHEMA_CHANGE_ALTERNATIVE_REMOVED, "alternative-removed"}};
    for (size_t i = 0; i < sizeof K / sizeof K[0]; i++)
        ck_assert_str_eq(schema_change_kind_name(K[i].k), K[i].name);
}
END_TEST

Suite *schema_compat_suite(void)
{
    Suite *s = suite_create("schema_compat");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, type_narrowed_and_widened);
    tcase_add_test(tc, boolean_schemas);
    tcase_add_test(tc, root_type);
    tcase_add_test(tc, union_collapsed);
    tcase_add_test(tc, enum_changes);
    tcase_add_test(tc, const_changes);
    tcase_add_test(tc, length_and_count_bounds);
    tcase_add_test(tc, numeric_bounds);
    tcase_add_test(tc, draft04_boolean_exclusive);
    tcase_add_test(tc, pattern_changes);
    tcase_add_test(tc, required_changes);
    tcase_add_test(tc, properties_added_and_removed);
    tcase_add_test(tc, additional_properties);
    tcase_add_test(tc, alternatives);
    tcase_add_test(tc, unprovable_keywords);
    tcase_add_test(tc, annotations_are_no_change);
    tcase_add_test(tc, reordering_is_no_change);
    tcase_add_test(tc, items_in_both_dialects);
    tcase_add_test(tc, references);
    tcase_add_test(tc, reference_cycles_end);
    tcase_add_test(tc, deep_nesting);
    tcase_add_test(tc, bounded_pairs);
    tcase_add_test(tc, shared_values_stay_linear);
    tcase_add_test(tc, callback_stops);
    tcase_add_test(tc, kind_names);
    suite_add_tcase(s, tc);
    return s;
}
