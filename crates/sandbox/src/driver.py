# Deskmate's cell driver: runs inside the sandbox as `python -I -B -u -X utf8 -c <this> RESULT`.
# Reads the cell's source from stdin, runs it like a notebook cell (the value of a final
# expression is the result) and writes {"result", "error"} as JSON to RESULT.
def _deskmate_cell():
    import ast
    import json
    import linecache
    import os
    import signal
    import sys
    import traceback

    # A file over the size limit must fail with an OSError the code can see, not kill it.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    try:
        import ctypes

        # If the sandbox helper dies, so does the cell (PR_SET_PDEATHSIG = 1, SIGKILL = 9).
        ctypes.CDLL(None).prctl(1, 9, 0, 0, 0)
    except Exception:
        pass

    result_fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    source = sys.stdin.read()
    sys.stdin = open(os.devnull)
    del sys.argv[1:]
    linecache.cache["<cell>"] = (len(source), None, source.splitlines(True), "<cell>")
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    outcome = {"result": None, "error": None}
    code = 0
    try:
        tree = ast.parse(source, "<cell>", "exec")
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            last = ast.Expression(tree.body.pop().value)
        exec(compile(tree, "<cell>", "exec"), namespace)
        if last is not None:
            value = eval(compile(last, "<cell>", "eval"), namespace)
            if value is not None:
                text = repr(value)
                outcome["result"] = text[:20000]
    except SystemExit as stop:
        if stop.code is None:
            code = 0
        elif isinstance(stop.code, int):
            code = stop.code
        else:
            print(stop.code, file=sys.stderr)
            code = 1
    except BaseException as exc:
        tb = exc.__traceback__
        # Hide the driver's own frame: the traceback starts in the cell.
        while tb is not None and tb.tb_frame.f_code.co_filename != "<cell>":
            tb = tb.tb_next
        if isinstance(exc, SyntaxError):
            tb = None
        traceback.print_exception(type(exc), exc, tb)
        if isinstance(exc, SyntaxError):
            outcome["error"] = "%s: %s (line %s)" % (type(exc).__name__, exc.msg, exc.lineno)
        else:
            lines = traceback.format_exception_only(type(exc), exc)
            outcome["error"] = lines[-1].strip() if lines else type(exc).__name__
        code = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:
        pass
    os.write(result_fd, json.dumps(outcome).encode())
    os.close(result_fd)
    os._exit(code & 0xFF)


_deskmate_cell()
