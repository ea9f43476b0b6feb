#!/usr/bin/env python3
"""The differences of the 6.12 series from the 6.1 one, applied by
vm/port-6.12 to a git tree in which the 6.1 patches are being applied:

  port-6.12.py context N TREE   place patch N's hunks whose context differs
  port-6.12.py code N TREE      make patch N's code changes for 6.12
  port-6.12.py message N TREE   say below patch N's "---" what differs
  port-6.12.py cover            print the 6.12 cover letter's subject+text

Every edit checks that it finds what it expects, so that a change of the
6.1 series that the port does not know about stops it, loudly.
"""
import re
import subprocess
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent

# Where a rejected insertion goes in 6.12: (file, anchor, after or before);
# "FILE@N" is for patch N alone.
ANCHORS = {
    "kernel/Makefile": ("obj-$(CONFIG_RELAY) += relay.o\n", "after"),
    "kernel/Makefile@0013": ("obj-$(CONFIG_RELAY_TRACE) += relay_trace.o\n", "after"),
    # relay's splice code, before which 6.1 has relay_file_peek(), is gone.
    "kernel/relay.c@0009": ("const struct file_operations relay_file_operations = {\n", "before"),
    "Documentation/userspace-api/ioctl/ioctl-number.rst":
        ("0xB8  01-02  uapi/misc/mrvl_cn10k_dpi.h                                Marvell CN10K DPI driver\n",
         "after"),
    "Documentation/trace/index.rst": ("   ring-buffer-design\n", "after"),
    "MAINTAINERS": ("REMOTE PROCESSOR (REMOTEPROC) SUBSYSTEM\n", "before"),
    "lib/Kconfig": ('config OBJAGG\n\ttristate "objagg" if COMPILE_TEST\n\n', "after"),
    "lib/Makefile": ("obj-$(CONFIG_OVERFLOW_KUNIT_TEST) += overflow_kunit.o\n", "after"),
}


def die(msg):
    sys.exit(f"vm/port-6.12: {msg}")


def replace(path, old, new, count=1):
    s = path.read_text()
    if s.count(old) != count:
        die(f"{path}: expected {count} of:\n{old[:300]}\nfound {s.count(old)}")
    path.write_text(s.replace(old, new))


# Rejected hunks whose context line reads otherwise in 6.12: (file, the
# 6.1 line, the 6.12 line).  The hunk is applied again with it replaced.
CONTEXT_LINES = {
    "kernel/relay.c": ("\tstrlcpy(chan->base_filename, base_filename, NAME_MAX);\n",
                       "\tstrscpy(chan->base_filename, base_filename, NAME_MAX);\n"),
}


def rehunk(n, tree, rej, rel):
    """Apply a rejected hunk again, with its 6.1 context line made 6.12's."""
    old, new = CONTEXT_LINES[rel]
    text = rej.read_text()
    if " " + old not in text:
        die(f"patch {n}: {rel}: a rejected hunk without the context line the port knows")
    body = text.split("\n", 1)[1].replace(" " + old, " " + new)
    patch = f"--- a/{rel}\n+++ b/{rel}\n" + body
    r = subprocess.run(["patch", "-p1", "-s", "--no-backup-if-mismatch", "-r", "-", "-d", str(tree)],
                       input=patch, text=True, capture_output=True)
    if r.returncode:
        die(f"patch {n}: {rel}: its rejected hunk does not apply with the 6.12 context: {r.stdout}{r.stderr}")


def context(n, tree):
    """Place the insertions that git apply rejected."""
    for rej in sorted(tree.rglob("*.rej")):
        rel = str(rej.relative_to(tree))[:-4]
        if rel in CONTEXT_LINES and f"{rel}@{n}" not in ANCHORS:
            rehunk(n, tree, rej, rel)
            continue
        key = f"{rel}@{n}" if f"{rel}@{n}" in ANCHORS else rel
        if key not in ANCHORS:
            die(f"patch {n}: {rel} does not apply, and the port does not know where it goes")
        anchor, where = ANCHORS[key]
        added = []
        for line in rej.read_text().splitlines(True)[1:]:
            if line.startswith("@@"):
                continue
            if line.startswith("-"):
                die(f"patch {n}: {rel}: a rejected hunk removes lines; the port only places insertions")
            if line.startswith("+"):
                added.append(line[1:])
        text = "".join(added)
        target = tree / rel
        s = target.read_text()
        if text in s:
            continue
        if s.count(anchor) != 1:
            die(f"patch {n}: {rel}: the anchor {anchor!r} is not there once")
        target.write_text(s.replace(anchor, anchor + text if where == "after" else text + anchor))


def code(n, tree):
    if n == "0010":
        # vm_flags is read-only in 6.12: vm_flags_clear() (6.3).
        replace(tree / "kernel/relay_trace.c", """	vma->vm_flags &= ~VM_MAYWRITE;
""", """	vm_flags_clear(vma, VM_MAYWRITE);
""")
        # no_llseek is gone (6.12): relay's open makes the files nonseekable.
        replace(tree / "kernel/relay_trace.c", """	.release	= trace_data_release,
	.llseek		= no_llseek,
""", """	.release	= trace_data_release,
""")
        replace(tree / "Documentation/trace/relay-trace.rst",
                """when a sub-buffer is complete.  The files have no splice(2): relay's
``splice_read`` hands pages to the pipe without taking references to them.""",
                """when a sub-buffer is complete.  The files have no splice(2): relay has
had no ``splice_read`` since Linux 6.8.""")
    if n == "0013":
        k = tree / "kernel/relay_trace_kunit.c"
        s = k.read_text()
        start = s.index("/*\n * Cases that go through the files as user space does")
        end = s.index("\treturn env;\n}\n", start)
        s = s[:start] + """/*
 * Cases that go through the files as user space does, with read(2) and
 * write(2) on them, in user memory from kunit_vm_mmap().
 */
#define UBUF_SIZE	SZ_1M

struct file_env {
	char __user *ubuf;
};

static struct file_env *file_env(struct kunit *test)
{
	struct file_env *env;
	unsigned long addr;

	env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, env);
	addr = kunit_vm_mmap(test, NULL, 0, UBUF_SIZE, PROT_READ | PROT_WRITE,
			     MAP_ANONYMOUS | MAP_PRIVATE, 0);
	KUNIT_ASSERT_NE(test, addr, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR_VALUE(addr));
	env->ubuf = (char __user *)addr;
""" + s[end:]
        k.write_text(s)
        replace(k, """#else
static void file_tests_need_builtin(struct kunit *test)
{
	kunit_skip(test, "the file tests need the suite built in");
}

#define state_file_test		file_tests_need_builtin
#define trace_file_read_test	file_tests_need_builtin
#define rewind_file_test	file_tests_need_builtin
#define files_after_cleanup_test file_tests_need_builtin
#define commit_test		file_tests_need_builtin
#define mmap_test		file_tests_need_builtin
#define padding_snapshot_test	file_tests_need_builtin
#define mmap_flight_test	file_tests_need_builtin
#endif
""", "")
        replace(k, """#include <linux/mman.h>
#include <linux/mount.h>
#include <linux/relay_trace.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
""", """#include <linux/mman.h>
#include <linux/mount.h>
#include <linux/relay_trace.h>
""")


NOTES = {
    "0008": "Differences from the 6.1 version: the same change; relay_mmap_buf()\n"
            "sets VM_DONTEXPAND with vm_flags_set() in 6.12.",
    "0009": "Differences from the 6.1 version: the same code; relay's splice code,\n"
            "before which the new functions sit in 6.1, is gone (6.8), so they sit\n"
            "before relay_file_operations.",
    "0010": "Differences from the 6.1 version: the relay files' operations have no\n"
            ".llseek (no_llseek is gone in 6.12; relay's open makes them\n"
            "nonseekable), their mmap clears VM_MAYWRITE with vm_flags_clear()\n"
            "(6.1: on vm_flags directly), the hunks in Documentation/trace/index.rst, MAINTAINERS\n"
            "and init/Kconfig sit where those files now have room for them, and the\n"
            "documentation and this message say that relay has had no splice_read\n"
            "since 6.8.",
    "0011": "Differences from the 6.1 version: the same code; the entry in\n"
            "ioctl-number.rst follows 0xB8, which 6.12 has.",
    "0013": "Differences from the 6.1 version: the file cases get their user memory\n"
            "from kunit_vm_mmap() (added in 6.10), so they run when the suite is a\n"
            "module too; 6.1 has no such helper, builds an mm by hand with symbols\n"
            "that modules cannot use, and skips these cases in a module.",
}
SAME = "The same change as for 6.1; it applies as it is."


def reflow(msg, text):
    """Wrap again, at 72 columns, the paragraph of msg that holds text."""
    pars = msg.split("\n\n")
    for i, par in enumerate(pars):
        if text in par:
            words = " ".join(par.split())
            words = re.sub(r"([a-z)])\. ", r"\1.  ", words)
            lines, line = [], ""
            for w in words.split(" "):
                if w == "":
                    line += " "
                    continue
                cand = f"{line} {w}" if line else w
                if len(cand.rstrip()) > 72 and line:
                    lines.append(line.rstrip())
                    line = w
                else:
                    line = cand
            lines.append(line.rstrip())
            pars[i] = "\n".join(lines)
    return "\n\n".join(pars)


def message(n, tree):
    git = ["git", "-C", str(tree)]
    msg = subprocess.run(git + ["log", "-1", "--format=%B"], capture_output=True, text=True,
                         check=True).stdout.rstrip("\n")
    if n == "0010":
        msg, k = re.subn(r"The relay files get relay's operations but\s+splice_read, which hands the pipe pages it takes no reference to\.",
                         "The relay files get relay's operations (relay\nhas had no splice_read since 6.8).", msg)
        if k != 1:
            die("patch 0010: its message no longer says which operations the relay files get")
        msg = reflow(msg, "The relay files get relay's operations")
    if n == "0013":
        msg, k = re.subn(r"A KUnit case\s+runs\s+in\s+a\s+kthread.*?built\s+as\s+a\s+module\.",
                         "They get their user memory\nfrom kunit_vm_mmap().", msg, flags=re.S)
        if k != 1:
            die("patch 0013: its message no longer explains the user memory of the file cases")
        msg = reflow(msg, "They get their user memory")
    subprocess.run(git + ["commit", "-q", "--amend", "-m", msg], check=True)
    # The port note goes below the patch's "---" line (git format-patch
    # --notes), where notes that are not part of the commit belong.
    subprocess.run(git + ["notes", "add", "-f", "-m", NOTES.get(n, SAME), "HEAD"], check=True)


def cover():
    text = (TOP / "patches/6.1/0000-cover-letter.patch").read_text()
    subject = re.search(r"^Subject: \[PATCH 0+/\d+\] (.*)$", text, re.M).group(1)
    blurb = text.split("\n\n", 1)[1]
    blurb = blurb[:re.search(r"^\S.* \(\d+\):$", blurb, re.M).start()].rstrip("\n")
    old = "rewritten for a current kernel."
    if blurb.count(old) != 1:
        die("the 6.1 cover letter no longer says what the series is")
    blurb = blurb.replace(old, old + """  This is its version for Linux 6.12
(Debian's linux-source-6.12), made from the 6.1 version and kept in step
with it: the code is the same but for the KUnit cases that go through
the files, which use kunit_vm_mmap() here, and each patch says below its
"---" line what differs from 6.1.""")
    print(subject + "\n\n" + blurb)


def main():
    cmd = sys.argv[1]
    if cmd == "cover":
        cover()
        return
    n, tree = sys.argv[2], Path(sys.argv[3])
    {"context": context, "code": code, "message": message}[cmd](n, tree)


if __name__ == "__main__":
    main()
