#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench/kbuild-tree.py DIR [N]: writes a pre-split tree whose include/linux
exports N headers (default 20,000) from one Kbuild file.

Each header is small and has an `#ifdef __KERNEL__` part, so the split
moves every one of them to include/uapi/linux and edits both export
lists.  The Kbuild file lists most names one per line, some several to a
line, some behind a backslash continuation and some in ifneq stanzas, the
forms the kernel's own lists use.  DIR must not exist.
"""
import os
import sys


def header(name, i):
    guard = "_LINUX_%s_H" % name.upper()
    return ("#ifndef %s\n#define %s\n\n"
            "#include <linux/types.h>\n\n"
            "#define GEN%05d_MAGIC 0x%04x\n\n"
            "struct gen%05d_req {\n\t__u32 op;\n\t__u32 len;\n};\n\n"
            "#ifdef __KERNEL__\n"
            "struct gen%05d_state;\n"
            "int gen%05d_setup(struct gen%05d_state *st);\n"
            "#endif /* __KERNEL__ */\n\n"
            "#endif /* %s */\n") % (guard, guard, i, i & 0xffff, i, i, i, i, guard)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    root = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) == 3 else 20000
    linux = os.path.join(root, "include", "linux")
    os.makedirs(linux)
    names = ["gen%05d.h" % i for i in range(n)]
    for i, name in enumerate(names):
        with open(os.path.join(linux, name), "w") as f:
            f.write(header(name[:-2], i))
    with open(os.path.join(linux, "types.h"), "w") as f:
        f.write("#ifndef _LINUX_TYPES_H\n#define _LINUX_TYPES_H\n\n"
                "typedef unsigned int __u32;\n\n"
                "#ifdef __KERNEL__\ntypedef __u32 u32;\n#endif\n\n#endif\n")
    lines = ["# %d generated headers (bench/kbuild-tree.py)\n" % n, "header-y += types.h\n"]
    i = 0
    while i < n:
        if i % 1000 == 500:  # a stanza of two
            lines.append("ifneq ($(wildcard $(srctree)/arch/$(SRCARCH)/include/asm/a.h),)\n"
                         "header-y += %s\nheader-y += %s\nendif\n" % (names[i], names[i + 1]))
            i += 2
        elif i % 100 == 50:  # three to a line
            lines.append("header-y += %s\n" % " ".join(names[i:i + 3]))
            i += 3
        elif i % 100 == 70:  # a continuation
            lines.append("header-y += %s \\\n\t%s\n" % (names[i], names[i + 1]))
            i += 2
        else:
            lines.append("header-y += %s\n" % names[i])
            i += 1
    with open(os.path.join(linux, "Kbuild"), "w") as f:
        f.writelines(lines)


if __name__ == "__main__":
    main()
