#!/usr/bin/env python3
"""Where an iree-llm run's CPU time goes, by compiled module and by function,
hand-written kernels' static helpers included.

perf cannot name the code of IREE's CPU modules: the runtime maps each
module's ELF into anonymous memory, so its samples land in "[JIT]". This
runs the command under `perf record -e cpu-clock`, copies the first bytes
of every anonymous executable mapping while the command runs (from
/proc/PID/mem), and afterwards finds the module each mapping holds among
the cached `.vmfb` files by comparing those bytes with each ELF's code
segment. A sample is then named by the ELF's symbols and, inside the
hand-written kernel objects (built with one section a function), by the
objects' sections laid out in order from an export the ELF names; an
object is used only where every export of it the ELF has lands on its
symbol. Code before `iree_hal_executable_library_query` is IREE's own
dispatches.

    scripts/cpu_profile.py [--freq 1999] [--top 12] [--modules DIR]
        [--objects DIR] -- target/release/iree-llm graph-bench ...

Needs perf (Debian's linux-perf) and the right to read the child's memory
(root, or ptrace_scope 0).
"""
import argparse
import bisect
import collections
import glob
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

def elf_in(path):
    """The ELF embedded in a .vmfb: (its bytes, its executable segment's
    file offset, virtual address and size), or None."""
    data = open(path, "rb").read()
    at = data.find(b"\x7fELF")
    if at < 0:
        return None
    elf = data[at:]
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x3A)
    elf = elf[: shoff + shentsize * shnum]
    phoff, = struct.unpack_from("<Q", elf, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", elf, 0x36)
    for i in range(phnum):
        kind, flags, off, vaddr, _, filesz, _, _ = struct.unpack_from(
            "<IIQQQQQQ", elf, phoff + i * phentsize)
        if kind == 1 and flags & 1:
            return elf, off, vaddr, filesz
    return None


def symbols(elf_path):
    """(address, name) of an ELF's or object's functions, by address."""
    out = subprocess.run(["nm", "-n", elf_path], capture_output=True, text=True).stdout
    found = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "Tt":
            found.append((int(parts[0], 16), parts[2]))
    return found


def sections(obj):
    """An object's function sections in file order: (name, size, align)."""
    out = subprocess.run(["objdump", "-h", obj], capture_output=True, text=True).stdout
    found = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 7 and parts[1].startswith(".text."):
            align = int(parts[6].split("**")[1]) if "**" in parts[6] else 0
            found.append((parts[1][len(".text."):], int(parts[2], 16), 1 << align))
    return found


def object_ranges(elf_syms, objects):
    """[start, end) and name of each kernel function the ELF holds."""
    named = dict((n, a) for a, n in elf_syms)
    ranges = []
    for obj in objects:
        secs = sections(obj)
        if not secs:
            continue
        at, pos = 0, {}
        for name, size, align in secs:
            at = (at + align - 1) // align * align
            pos[name] = at
            at += size
        exports = [n for n, _, _ in secs if n in named]
        if not exports:
            continue
        base = named[exports[0]] - pos[exports[0]]
        if any(named[n] != base + pos[n] for n in exports):
            continue  # laid out otherwise: leave it to the ELF's own symbols
        short = os.path.basename(obj).replace("_kernels.o", "")
        ranges += [(base + pos[n], base + pos[n] + s, f"{n} [{short}]") for n, s, _ in secs]
    return sorted(ranges)


def watch(pid, seen):
    """Copies the process's new anonymous executable mappings into `seen`
    (start -> (end, bytes))."""
    try:
        maps = open(f"/proc/{pid}/maps").read().splitlines()
        mem = open(f"/proc/{pid}/mem", "rb")
    except OSError:
        return
    with mem:
        for line in maps:
            parts = line.split()
            if len(parts) != 5 or "x" not in parts[1]:
                continue  # file-backed mappings have a path: perf names them
            start, end = (int(x, 16) for x in parts[0].split("-"))
            if start in seen:
                continue
            try:
                mem.seek(start)
                seen[start] = (end, mem.read(end - start))
            except OSError:
                pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--freq", type=int, default=1999)
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--modules", default=os.path.expanduser("~/.cache/iree-llm/modules"))
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--objects", default=None,
                    help="directory of the kernel objects (default: the newest build's OUT_DIR)")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        ap.error("give the command to profile after --")
    objects_dir = args.objects
    if objects_dir is None:
        built = glob.glob(os.path.join(here, "target/release/build/iree-llm-*/out/*_kernels.o"))
        if built:
            objects_dir = os.path.dirname(max(built, key=os.path.getmtime))
    objects = sorted(glob.glob(os.path.join(objects_dir, "*_kernels.o"))) if objects_dir else []

    if shutil.which("perf") is None:
        sys.exit("cpu_profile.py needs perf on the PATH (Debian: apt-get install linux-perf)")
    if not objects:
        print("no kernel objects found (build with cargo build --release, or pass --objects): "
              "kernels' static helpers will not be named", file=sys.stderr)
    tmp = tempfile.mkdtemp(prefix="cpu-profile-")
    data = os.path.join(tmp, "perf.data")
    perf = subprocess.Popen(["perf", "record", "-q", "-e", "cpu-clock", "-F", str(args.freq),
                             "-o", data, "--"] + command)
    seen, child = {}, None
    while perf.poll() is None:
        if child is None:
            kids = subprocess.run(["pgrep", "-P", str(perf.pid)], capture_output=True,
                                  text=True).stdout.split()
            child = int(kids[0]) if kids else None
        if child is not None:
            watch(child, seen)
        time.sleep(0.2)
    if perf.returncode != 0:
        sys.exit(f"perf record exited with {perf.returncode}")

    # The module each mapping holds: the one whose whole code segment it
    # starts with (a module's code is not relocated when it is loaded).
    modules = []
    for path in glob.glob(os.path.join(args.modules, "*.vmfb")):
        found = elf_in(path)
        if found:
            elf, off, vaddr, size = found
            modules.append((path, elf, vaddr, elf[off:off + size]))
    mapped = []  # (start, end, module name, vaddr at start, kernel ranges, symbols)
    for start, (end, head) in sorted(seen.items()):
        same = [m for m in modules if head[m[2] & 0xFFF:][:len(m[3])] == m[3]]
        if not same:
            continue
        path, elf, vaddr, _ = same[0]
        elf_path = os.path.join(tmp, f"{start:x}.elf")
        open(elf_path, "wb").write(elf)
        syms = symbols(elf_path)
        name = os.path.basename(path).rsplit("-", 1)[0]
        others = {os.path.basename(m[0]).rsplit("-", 1)[0] for m in same} - {name}
        if others:
            name += f" (same code as {', '.join(sorted(others))})"
        mapped.append((start, end, name, vaddr & ~0xFFF, object_ranges(syms, objects), syms))

    ips = collections.Counter()
    script = subprocess.run(["perf", "script", "-i", data, "-F", "ip,dso"],
                            capture_output=True, text=True).stdout
    total = 0
    for line in script.splitlines():
        parts = line.split()
        if not parts:
            continue
        total += 1
        if re.search(r"perf-\d+\.map|//anon|\[JIT\]|\[unknown\]", line):
            ips[int(parts[0], 16)] += 1
    print(f"{total} samples, {sum(ips.values())} in anonymous code "
          f"({len(seen)} executable mappings seen, {len(mapped)} matched to modules)")
    placed = 0
    for start, end, name, page, ranges, syms in mapped:
        query = [a for a, n in syms if n == "iree_hal_executable_library_query"]
        starts = [r[0] for r in ranges]
        sym_at = [a for a, _ in syms]
        counts, count = collections.Counter(), 0
        for ip, k in ips.items():
            if not start <= ip < end:
                continue
            v = ip - start + page
            i = bisect.bisect_right(starts, v) - 1
            if i >= 0 and ranges[i][0] <= v < ranges[i][1]:
                what = ranges[i][2]
            elif query and v < query[0]:
                what = "IREE's own dispatches"
            else:
                j = bisect.bisect_right(sym_at, v) - 1
                what = syms[j][1] if j >= 0 else "?"
            counts[what] += k
            count += k
        placed += count
        if not count:
            continue
        print(f"\n{name} at {start:x}: {count} samples ({100 * count / max(total, 1):.1f}% of all)")
        for what, k in counts.most_common(args.top):
            print(f"  {100 * k / count:5.1f}%  {what}")
    print(f"\n{sum(ips.values()) - placed} anonymous samples in no matched module")


if __name__ == "__main__":
    main()
