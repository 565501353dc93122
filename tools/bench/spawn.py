"""spawn.py OUT ERR CMD [ARG]... - one timed run of CMD for tools/bench/run.sh.

Standard output goes to the file OUT ("-": /dev/null), standard error to ERR. Prints
one line, "WALL_MS USER_MS SYS_MS MAXRSS_KIB STATUS": the wall time from just before
posix_spawn to the return of wait4 (so it holds process start-up, dynamic linking and
exit, as a user waits for them, but not Python's own start-up), the child's user and
system CPU time and peak resident set size from wait4's rusage (what /usr/bin/time
reports, at a finer grain), and its exit status (128 + N when killed by signal N).
Exit status 2 when CMD cannot be started."""
import os
import sys
import time


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: spawn.py OUT ERR CMD [ARG]...")
    out, err, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    fd_out = os.open(os.devnull if out == "-" else out, flags, 0o644)
    fd_err = os.open(err, flags, 0o644)
    actions = [(os.POSIX_SPAWN_DUP2, fd_out, 1), (os.POSIX_SPAWN_DUP2, fd_err, 2)]
    t0 = time.perf_counter_ns()
    try:
        pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=actions)
    except OSError as e:
        sys.exit("spawn.py: cannot run %s: %s" % (argv[0], e.strerror))
    _, status, ru = os.wait4(pid, 0)
    t1 = time.perf_counter_ns()
    code = os.waitstatus_to_exitcode(status)
    print("%.3f %.3f %.3f %d %d" % ((t1 - t0) / 1e6, ru.ru_utime * 1e3, ru.ru_stime * 1e3,
                                    ru.ru_maxrss, 128 - code if code < 0 else code))


main()
