# Test helper: runs a program under a seccomp filter that answers ENOSYS to Landlock's
# system calls, as a kernel built without Landlock does (x86_64 only).
# Usage: python3 no_landlock.py PROGRAM [ARGS...]
import ctypes
import os
import struct
import sys


def insn(code, k, jt=0, jf=0):
    return struct.pack("HBBI", code, jt, jf, k)


prog = [insn(0x20, 0)]  # load the syscall number
for nr in (444, 445, 446):  # landlock_create_ruleset, landlock_add_rule, landlock_restrict_self
    prog += [insn(0x15, nr, 0, 1), insn(0x06, 0x00050000 | 38)]  # RET ERRNO(ENOSYS)
prog.append(insn(0x06, 0x7FFF0000))  # RET ALLOW
buf = ctypes.create_string_buffer(b"".join(prog))


class Prog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


fprog = Prog(len(prog), ctypes.addressof(buf))
libc = ctypes.CDLL(None, use_errno=True)
assert libc.prctl(38, 1, 0, 0, 0) == 0  # PR_SET_NO_NEW_PRIVS
assert libc.prctl(22, 2, ctypes.byref(fprog), 0, 0) == 0, ctypes.get_errno()  # PR_SET_SECCOMP
os.execv(sys.argv[1], sys.argv[1:])
