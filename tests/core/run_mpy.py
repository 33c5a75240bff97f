# Runs the core's test modules on MicroPython (no pytest there): every function whose name
# starts with test_ is called; a failure prints its traceback. Ends with pytest's summary
# words so CI can read the count, and exits non-zero on any failure.
import gc
import sys

passed = 0
failed = 0
for path in sys.argv[1:]:
    name = path.split("/")[-1][:-3]
    module = __import__(name)
    for attr in sorted(dir(module)):
        if not attr.startswith("test_"):
            continue
        fn = getattr(module, attr)
        gc.collect()
        try:
            fn()
            passed += 1
        except Exception as e:  # report and go on, like pytest
            failed += 1
            print("FAILED %s::%s" % (name, attr))
            sys.print_exception(e)  # type: ignore[attr-defined]
print("micropython: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
