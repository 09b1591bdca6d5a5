#!/usr/bin/env python3
"""Writes adjudicator/carc_hot.ld, the linker script that groups carc's start-up code (issue 21).

A start-up pays for every page of code it touches (each fault maps 64 KB of the binary and costs
20-30 us on the project's VM); the functions one adjudication runs are spread over the 6 MB of
.text. The script lists every input section holding a function that ran in a set of command
lines (each function has its own section: -ffunction-sections, top CMakeLists.txt), in one output
section placed before .text, the first command line's first, so they sit in adjacent pages.
Names that no longer exist match nothing (the link still works); regenerate after large changes,
from a link map made WITHOUT the script (else the hot functions are not in the map's .text):

  cmake --build build --target carc
  (cd build/adjudicator && $(sed -e 's|-o ../carc|-o /tmp/carc -Wl,-Map=/tmp/carc.map|' \\
      -e 's|-Wl,-T,[^ ]*carc_hot.ld||' CMakeFiles/carc.dir/link.txt))
  adjudicator/hot_sections.py /tmp/carc /tmp/carc.map adjudicator/carc_hot.ld

Needs valgrind (callgrind and lackey, run from the source folder on the command lines below) and nm.
"""
import bisect
import os
import re
import subprocess
import sys
import tempfile

EXAMPLE = 'fixtures/examples/who_scores_the_city.position.json'
COMMAND_LINES = [
    ['adjudicate', EXAMPLE, '--format', 'text'],
    ['adjudicate', EXAMPLE, '--format', 'json'],
    ['adjudicate', EXAMPLE],
    ['--help'],
    ['adjudicate', '--help'],
    ['validate', EXAMPLE],
    ['legal', EXAMPLE],
    ['score', EXAMPLE, '--format', 'text'],
    ['adjudicate', '/nonexistent.json'],
    ['adjudicate', 'fixtures/malformed/h02_number_1e400.position.json'],
    ['nosuch'],
]


def input_sections(link_map, output, inputs, ends):
    """Input sections (matching the regex `inputs`) of the output section `output` in a GNU ld
    map, up to the first line `ends` says closes it: (address, size, section name, file)."""
    lines = open(link_map).read().split('\n')
    start = next(k for k, l in enumerate(lines) if l.startswith(output + ' '))
    secs, pending = [], None
    for l in lines[start + 1:]:
        if ends(l):
            break
        m = re.match(r'^ (' + inputs + r')\s*$', l)
        if m:  # a long name: address and size on the next line
            pending = m.group(1)
            continue
        m = re.match(r'^ (' + inputs + r')\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(.*)$', l)
        if m:
            secs.append((int(m.group(2), 16), int(m.group(3), 16), m.group(1), m.group(4)))
        else:
            m = re.match(r'^\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$', l)
            if m and pending:
                secs.append((int(m.group(1), 16), int(m.group(2), 16), pending, m.group(3)))
        pending = None
    return sorted(s for s in secs if s[1] > 0)


def text_sections(link_map):
    """Input sections of .text in a GNU ld map: (address, size, section name, file)."""
    return input_sections(link_map, '.text', r'\.text\S*',
                          lambda l: re.match(r'^\.\S', l) and not l.startswith('.text'))


def bss_sections(link_map):
    """Input sections of .bss in a GNU ld map: (address, size, section name, file)."""
    return input_sections(link_map, '.bss', r'\.bss\S*|COMMON', lambda l: re.match(r'^\.\S', l))


def bss_touched(binary, secs):
    """Indexes into secs of the .bss sections the first command line reads or writes (lackey)."""
    entry = int(re.search(r'Entry point address:\s+0x([0-9a-f]+)',
                          subprocess.run(['readelf', '-h', binary], capture_output=True,
                                         text=True).stdout).group(1), 16)
    starts = [s[0] for s in secs]
    touched, base = [], None
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, 'lackey')
        subprocess.run(['valgrind', '--tool=lackey', '--trace-mem=yes', f'--log-file={log}',
                        binary] + COMMAND_LINES[0],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for l in open(log):
            if base is None and l.startswith('I'):  # the first instruction is the entry point
                base = int(l.split()[1].split(',')[0], 16) - entry
            elif l[:2] in (' L', ' S', ' M') and base is not None:
                a = int(l.split()[1].split(',')[0], 16) - base
                i = bisect.bisect_right(starts, a) - 1
                if i >= 0 and secs[i][0] <= a < secs[i][0] + secs[i][1] and i not in touched:
                    touched.append(i)
    return touched


def functions_run(binary):
    """Mangled names of the functions each command line runs (callgrind), in command order."""
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, args in enumerate(COMMAND_LINES):
            out = os.path.join(tmp, f'cg.{k}')
            subprocess.run(['valgrind', '--tool=callgrind', '--demangle=no',
                            f'--callgrind-out-file={out}', binary] + args,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            ran = set()
            for l in open(out):
                m = re.match(r"^c?fn=\(\d+\) (\S+)", l)
                if m:
                    ran.add(re.sub(r"'\d+$", '', m.group(1)))
            runs.append(ran)
    return runs


# The C library picks a string function's variant for the CPU at start (ifunc); valgrind's
# emulated CPU gets another one (__memmove_sse2_unaligned_erms where the machine runs
# __memmove_avx512_unaligned_erms), so every variant of a function that ran is hot.
IFUNC_VARIANT = re.compile(r'^(__[a-z0-9]+?)_(?:sse2|sse4_1|sse4_2|ssse3|avx2|avx512\w*|avx|'
                           r'evex\w*|erms)(?:_\w+)?$')


# Run natively but not under valgrind: the entry point, and the vDSO's setup (valgrind gives
# the process no vDSO; a native start looks up __vdso_clock_gettime & co.).
NATIVE_ONLY = {'_start', 'frame_dummy', '_dl_new_object', '_dl_setup_hash',
               '_dl_lookup_symbol_x', '_dl_vdso_vsym'}


def with_variants(ran, names):
    bases = {m.group(1) for m in map(IFUNC_VARIANT.match, ran) if m}
    return ran | {n for n in names if (m := IFUNC_VARIANT.match(n)) and m.group(1) in bases}


def main():
    binary, link_map, out = sys.argv[1:4]
    secs = text_sections(link_map)
    starts = [s[0] for s in secs]
    addr = {}
    for l in subprocess.run(['nm', binary], capture_output=True, text=True).stdout.split('\n'):
        p = l.split()
        if len(p) == 3 and p[1] in 'tTwWi':
            addr.setdefault(p[2], []).append(int(p[0], 16))
    runs = [with_variants(ran, addr) for ran in functions_run(binary)]
    runs[0] |= NATIVE_ONLY
    # The first command line's code first (the README adjudication: the fewest 64 KB windows
    # for it), then what the other command lines add.
    patterns = []
    for ran in runs:
        hot = set()
        for name in ran:
            for a in addr.get(name, []):
                i = bisect.bisect_right(starts, a) - 1
                if i >= 0 and secs[i][0] <= a < secs[i][0] + secs[i][1]:
                    hot.add(i)
        for i in sorted(hot):
            _, size, name, path = secs[i]
            m = re.match(r'^(?:.*/)?([^/(]+)\(([^)]+)\)$', path)
            if name in ('.text', '.text.unlikely', '.text.startup', '.text.hot', '.text.exit'):
                # A whole object's code (the C library's objects hold a function or a few each;
                # malloc.o is 24 KB): moved unless large, else left where it is. rcrt1.o
                # (_start) and crtbeginS.o are the system's object files of their own.
                if name != '.text' or size > 32768:
                    continue
                if m:
                    pat = f'*{m.group(1)}:{m.group(2)}(.text)'
                elif path.startswith('/usr/') and path.endswith('.o'):
                    pat = f'*{os.path.basename(path)}(.text)'
                else:
                    continue
            elif m and m.group(1).startswith(('libc.a', 'libm-', 'libm.a')):
                # The C library's sections are named by instruction set (.text.evex): only
                # this object's.
                pat = f'*{m.group(1)}:{m.group(2)}({name})'
            else:
                pat = f'*({name})'
            if pat not in patterns:
                patterns.append(pat)
    # The zeroed data the adjudication touches, together too: each page of .bss it touches is a
    # fault of its own (no 64 KB windows for memory that is not the file's).
    bss = bss_sections(link_map)
    bss_patterns = []
    for i in bss_touched(binary, bss):
        _, _, name, path = bss[i]
        m = re.match(r'^(?:.*/)?([^/(]+)\(([^)]+)\)$', path)
        if name not in ('.bss', 'COMMON'):
            pat = f'*({name})'
        elif m:
            pat = f'*{m.group(1)}:{m.group(2)}({name})'
        else:
            continue
        if pat not in bss_patterns:
            bss_patterns.append(pat)
    with open(out, 'w') as o:
        o.write('/* Generated by adjudicator/hot_sections.py (see there): the code carc runs at\n'
                '   start-up and for the README adjudication, grouped before .text, and the\n'
                '   zeroed data the adjudication touches, grouped before .bss (issue 21). */\n')
        o.write('SECTIONS\n{\n  .text.carc_hot :\n  {\n')
        for p in patterns:
            o.write(f'    {p}\n')
        o.write('  }\n}\nINSERT BEFORE .text;\n')
        o.write('SECTIONS\n{\n  .bss.carc_hot (NOLOAD) :\n  {\n')
        for p in bss_patterns:
            o.write(f'    {p}\n')
        o.write('  }\n}\nINSERT BEFORE .bss;\n')
    print(f'{len(set().union(*runs))} functions ran, {len(patterns)} patterns; '
          f'{len(bss_patterns)} .bss patterns', file=sys.stderr)


if __name__ == '__main__':
    main()
