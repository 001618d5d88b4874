"""measure.py CMD...: runs CMD and prints "WALL_SECONDS PEAK_RSS_KIB EXIT_STATUS"
(the peak resident memory of the command's process, from wait4)."""
import os
import subprocess
import sys
import time

t0 = time.monotonic()
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, ru = os.wait4(p.pid, 0)
wall = time.monotonic() - t0
print(f"{wall:.3f} {ru.ru_maxrss} {os.waitstatus_to_exitcode(status)}")
