#!/usr/bin/env python3
"""The series as commits: a git tree to work in, a reproducible export,
the 6.12 carry and the reverts of tests/fixes/.  Run through vm/series,
which sets the environment (vm/env.sh); `vm/series --help` says more.

One bare repository, build/series.git, holds the pristine Debian source
of each kernel as one commit (branch base/<kernel>, the same commit every
time: fixed identity, date and message) and the series on top of it
(branch series/<kernel>), checked out in build/<kernel>/series.

  6.1    base/6.1 + the patches of patches/6.1, applied as git am does;
         each revert of tests/fixes/ is a branch fix/<name>: the series
         and one commit that undoes a fix.
  6.12   base/6.12 + the 6.1 commits carried over (cherry-picked: git's
         three-way merge places them where 6.12's context differs), each
         followed by the port's fixup of it, if it has one
         (patches/6.12/port/NNNN-*.patch, a commit "fixup! <subject>").
         The export squashes each fixup into its commit.

A patch's notes (below its "---" line; 6.12's say what differs from
6.1) are git notes of its commit; notes.rewriteRef keeps them across
rebase and amend.  Nothing here removes a commit: a tree that is reset
keeps its old head as refs/backup/<kernel>/<time>.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TOP = Path(os.environ["TOP"])
BUILD = Path(os.environ["BUILD"])
REPO = BUILD / "series.git"
KERNEL = os.environ["KERNEL"]
# SERIES_PATCHES and SERIES_TESTS: other copies of patches/ and tests/
# (make check shows verify failing on broken copies).
PATCHES = Path(os.environ.get("SERIES_PATCHES", TOP / "patches"))
TESTS = Path(os.environ.get("SERIES_TESTS", TOP / "tests"))
FIXES = TESTS / "fixes"
IDENT = ("Relay Trace Developers", "relay-trace-dev@example.org")
# The base commits' identity and date: the same commit for the same source.
BASE_DATE = "946684800 +0000"
SAME = "The same change as for 6.1; it applies as it is."
COVER_EXTRA = PATCHES / "6.12" / "port" / "0000-cover.txt"


class Fail(Exception):
    pass


def log(msg):
    print(f"==> {msg}", file=sys.stderr, flush=True)


def rel(p):
    p = Path(p)
    try:
        return str(p.relative_to(TOP))
    except ValueError:
        return str(p)


def git(*args, cwd=None, env=None, input=None, check=True, index=None):
    e = dict(os.environ)
    e.pop("GIT_DIR", None)
    e.pop("GIT_WORK_TREE", None)
    if cwd is None:
        e["GIT_DIR"] = str(REPO)
    if index:
        e["GIT_INDEX_FILE"] = str(index)
    if env:
        e.update(env)
    r = subprocess.run(["git", *args], cwd=cwd, env=e, input=input, text=True,
                       capture_output=True)
    if check and r.returncode:
        raise Fail(f"git {' '.join(args[:4])}{' ...' if len(args) > 4 else ''} failed:\n"
                   f"{r.stderr.strip() or r.stdout.strip()}")
    return r.stdout if check else r


def ref(name):
    r = git("rev-parse", "-q", "--verify", name + "^{commit}", check=False)
    return r.stdout.strip() if r.returncode == 0 else None


def kpkg_version(kernel):
    r = subprocess.run(["dpkg-query", "-W", "-f=${Version}", f"linux-source-{kernel}"],
                       capture_output=True, text=True)
    if r.returncode:
        raise Fail(f"linux-source-{kernel} is not installed (make deps KERNEL={kernel})")
    return r.stdout.strip()


def ident_env(date=None):
    e = {"GIT_AUTHOR_NAME": IDENT[0], "GIT_AUTHOR_EMAIL": IDENT[1],
         "GIT_COMMITTER_NAME": IDENT[0], "GIT_COMMITTER_EMAIL": IDENT[1]}
    if date:
        e["GIT_AUTHOR_DATE"] = e["GIT_COMMITTER_DATE"] = date
    return e


def worktree(kernel):
    return BUILD / kernel / "series"


def wgit(kernel, *args, **kw):
    return git(*args, cwd=worktree(kernel), **kw)


# --- the repository and its base commits --------------------------------------

def ensure_repo():
    if not (REPO / "HEAD").exists():
        REPO.parent.mkdir(parents=True, exist_ok=True)
        git("init", "-q", "--bare", str(REPO), cwd=BUILD)
    for k, v in (("user.name", IDENT[0]), ("user.email", IDENT[1]),
                 # Notes follow their commit through rebase and amend.
                 ("notes.rewriteRef", "refs/notes/commits"),
                 # A repository of two kernel trees: no gc in the middle of
                 # a command; rename detection over the whole tree is slow.
                 ("gc.auto", "0"), ("merge.renames", "false"),
                 ("advice.detachedHead", "false"), ("advice.addIgnoredFile", "false"),
                 ("core.untrackedCache", "true")):
        git("config", k, v)


def base(kernel):
    """The commit of the pristine source of linux-source-KERNEL."""
    ver = kpkg_version(kernel)
    name = f"base/{kernel}"
    msg = (f"linux-source-{kernel} {ver}\n\nThe source of Debian's linux-source-{kernel} "
           f"package, version {ver},\nas /usr/src/linux-source-{kernel}.tar.xz holds it.\n")
    have = ref(name)
    if have and git("log", "-1", "--format=%B", have).strip() == msg.strip():
        return have
    tarball = Path(f"/usr/src/linux-source-{kernel}.tar.xz")
    if not tarball.exists():
        raise Fail(f"{tarball} is missing (make deps KERNEL={kernel})")
    log(f"making base/{kernel}: linux-source-{kernel} {ver} as one commit (about 40 s)")
    tmp = Path(tempfile.mkdtemp(prefix="base-", dir=BUILD))
    try:
        subprocess.run(["tar", "-C", str(tmp), "-xf", str(tarball)], check=True)
        src = tmp / f"linux-source-{kernel}"
        index = tmp / "index"
        git("add", "-f", "-A", ".", cwd=src, index=index,
            env={"GIT_DIR": str(REPO), "GIT_WORK_TREE": str(src)})
        tree = git("write-tree", index=index).strip()
    finally:
        shutil.rmtree(tmp)
    c = git("commit-tree", tree, env=ident_env(BASE_DATE), input=msg).strip()
    if have and have != c:
        git("update-ref", f"refs/backup/base/{kernel}/{int(time.time())}", have)
    git("update-ref", f"refs/heads/{name}", c)
    return c


# --- patches: read, applied as git am does, exported -------------------------

def series_files(kernel):
    d = PATCHES / kernel
    return [d / n for n in (d / "series").read_text().split()]


def notes_of(text):
    """The notes of a patch as git format-patch --notes writes them."""
    m = re.search(r"^---\n\nNotes:\n((?:    .*\n)+)", text, re.M)
    if not m:
        return ""
    return "\n".join(line[4:] for line in m.group(1).splitlines()).strip("\n")


def subject_of(text):
    m = re.search(r"^Subject: (?:\[PATCH[^\]]*\] )?(.*(?:\n .*)*)", text, re.M)
    return " ".join(m.group(1).split()) if m else None


def apply_patches(parent, files, notes=True):
    """Commit each patch on top of parent, as git am does, without a work
    tree (git mailinfo, git apply --cached, git commit-tree); the
    committer is the author, at the author's date, so that the same
    patches give the same commits.  Return the commits."""
    out = []
    tmp = Path(tempfile.mkdtemp(prefix="am-", dir=BUILD))
    try:
        index = tmp / "index"
        git("read-tree", parent, index=index)
        for p in files:
            info = subprocess.run(["git", "mailinfo", str(tmp / "msg"), str(tmp / "patch")],
                                  stdin=open(p), capture_output=True, text=True, check=True).stdout
            f = dict(line.split(": ", 1) for line in info.splitlines() if ": " in line)
            r = git("apply", "--cached", str(tmp / "patch"), index=index, check=False)
            if r.returncode:
                raise Fail(f"{rel(p)} does not apply on top of what comes before it:\n{r.stderr.strip()}")
            tree = git("write-tree", index=index).strip()
            body = (tmp / "msg").read_text()
            msg = f["Subject"] + ("\n\n" + body if body.strip() else "\n")
            env = {"GIT_AUTHOR_NAME": f["Author"], "GIT_AUTHOR_EMAIL": f["Email"],
                   "GIT_AUTHOR_DATE": f["Date"], "GIT_COMMITTER_NAME": f["Author"],
                   "GIT_COMMITTER_EMAIL": f["Email"], "GIT_COMMITTER_DATE": f["Date"]}
            parent = git("commit-tree", tree, "-p", parent, env=env, input=msg).strip()
            n = notes_of(p.read_text())
            if notes and n:
                git("notes", "add", "-f", "-m", n, parent)
            out.append(parent)
    finally:
        shutil.rmtree(tmp)
    return out


INDEX_LINE = re.compile(r"^index [0-9a-f]+\.\.[0-9a-f]+(?: [0-7]+)?\n", re.M)


def normal_patch(text):
    """A patch without what changes by itself: blob ids (index lines)."""
    return INDEX_LINE.sub("", text)


def attributes(kernel):
    """The kernel's .gitattributes (diff=cpp: hunks named by their
    function, as in the kernel's git tree), for git commands run on the
    bare repository."""
    path = REPO / f"attributes-{kernel}"
    if not path.exists():
        path.write_text(git("show", f"{base(kernel)}:.gitattributes"))
    return ["-c", f"core.attributesFile={path}"]


def format_patches(kernel, rng, cover=True, notes=True, numbered=True):
    """git format-patch of rng, reproducible: {file name: text}."""
    tmp = Path(tempfile.mkdtemp(prefix="fp-", dir=BUILD))
    try:
        args = ["format-patch", "-q", "--zero-commit", "--no-signature", "--no-thread",
                "--no-renames", "--no-binary", "-o", str(tmp)]
        args += ["--notes"] if notes else ["--no-notes"]
        args += ["--cover-letter"] if cover else []
        args += [] if numbered else ["--no-numbered"]
        git(*attributes(kernel), *args, *rng,
            env={"GIT_COMMITTER_NAME": IDENT[0], "GIT_COMMITTER_EMAIL": IDENT[1]})
        return {p.name: normal_patch(p.read_text()) for p in sorted(tmp.iterdir())}
    finally:
        shutil.rmtree(tmp)


def cover_blurb(path):
    """The subject and the text of a cover letter."""
    text = path.read_text()
    subject = re.search(r"^Subject: \[PATCH 0+/\d+\] (.*)$", text, re.M).group(1)
    blurb = text.split("\n\n", 1)[1]
    m = re.search(r"^\S.* \(\d+\):$", blurb, re.M)
    return subject, blurb[:m.start()].rstrip("\n") if m else blurb.rstrip("\n")


def render_series(kernel, rng, commits, subject, blurb):
    """The files of patches/KERNEL for the commits of rng: the patches,
    the cover letter (subject and blurb given; the series' identity and
    newest date, not the exporter's) and the series file."""
    patches = format_patches(kernel, rng)
    names = sorted(patches)
    cover = patches[names[0]]
    if "*** SUBJECT HERE ***" not in cover:
        raise Fail("git format-patch wrote no cover letter")
    frm = re.search(r"^From: .*(?:\n .*)*", patches[names[1]], re.M).group(0)
    cover = re.sub(r"^From: .*(?:\n .*)*", lambda m: frm, cover, count=1, flags=re.M)
    cover = re.sub(r"^Date: .*$", lambda m: f"Date: {newest_date(commits)}", cover, count=1, flags=re.M)
    patches[names[0]] = cover.replace("*** SUBJECT HERE ***", subject).replace("*** BLURB HERE ***", blurb)
    patches["series"] = "".join(n + "\n" for n in names[1:])
    return patches


def write_files(d, files, pattern):
    """Write files into d; remove the files matching pattern that are not
    among them (the project's git history keeps them).  Return what
    changed."""
    d.mkdir(parents=True, exist_ok=True)
    changed = []
    for n, t in files.items():
        p = d / n
        if not p.exists() or p.read_text() != t:
            p.write_text(t)
            changed.append(n)
    for p in sorted(d.glob(pattern)):
        if p.name not in files:
            p.unlink()
            changed.append(f"{p.name} (removed)")
    return changed


def newest_date(commits):
    dates = [git("log", "-1", "--format=%at %aD", c).strip().split(" ", 1) for c in commits]
    return max(dates, key=lambda d: int(d[0]))[1]


# --- the work trees ---------------------------------------------------------------

def exported_ref(kernel):
    return f"refs/exported/{kernel}"


def tree_state(kernel):
    """None if there is no work tree; else (head, clean, exported)."""
    wt = worktree(kernel)
    if not (wt / ".git").exists():
        return None
    head = wgit(kernel, "rev-parse", "HEAD").strip()
    status = wgit(kernel, "status", "--porcelain", "--ignored=matching",
                  "--untracked-files=all").strip()
    busy = any((Path(wgit(kernel, "rev-parse", "--git-dir").strip()) / x).exists()
               for x in ("rebase-merge", "rebase-apply", "CHERRY_PICK_HEAD", "MERGE_HEAD"))
    return head, not status and not busy, head == ref(exported_ref(kernel))


def keep(kernel, head, why):
    name = f"refs/backup/{kernel}/{time.strftime('%Y%m%d-%H%M%S')}"
    git("update-ref", name, head)
    log(f"{rel(worktree(kernel))}: its head {head[:12]} is kept as {name} ({why})")


def checkout(kernel, branch, commit, force=False):
    """Point the work tree of KERNEL, on BRANCH, at COMMIT; make it if
    need be.  A tree with work not exported is refused, unless force
    (its head is kept as a backup ref either way)."""
    wt = worktree(kernel)
    st = tree_state(kernel)
    if st is None:
        if wt.exists():
            raise Fail(f"{rel(wt)} exists but is not a work tree of {rel(REPO)}; move it away")
        log(f"checking out {branch} in {rel(wt)} (about 20 s)")
        git("worktree", "prune")
        git("branch", "-f", branch, commit)
        wt.parent.mkdir(parents=True, exist_ok=True)
        git("worktree", "add", "-q", str(wt), branch)
        return
    head, clean, exported = st
    if head == commit and clean and wgit(kernel, "symbolic-ref", "-q", "HEAD", check=False).stdout.strip() == f"refs/heads/{branch}":
        return
    if not clean:
        if not force:
            raise Fail(f"{rel(wt)} has changes not committed, or a rebase, am or cherry-pick "
                       f"in progress (git -C {rel(wt)} status --ignored); commit or finish them, or "
                       "give FORCE=1 to start over (the head is kept as a backup ref; "
                       "uncommitted changes are lost)")
    if not exported and head != commit:
        if not force:
            raise Fail(f"{rel(wt)} holds commits not exported (head {head[:12]}); "
                       f"make series-export KERNEL={kernel} first, or give FORCE=1 to start over "
                       "(its head is then kept as a backup ref)")
    if head != commit and not exported:
        keep(kernel, head, "replaced")
    for x in ("cherry-pick", "am", "rebase"):
        wgit(kernel, x, "--abort", check=False)
    wgit(kernel, "checkout", "-q", "-f", "-B", branch, commit)
    wgit(kernel, "clean", "-q", "-f", "-d", "-x")


# --- reverts of tests/fixes: branches fix/<name> ------------------------------------

def revert_tree(path):
    """N if the revert at path undoes patch N on patch N's own tree ("#
    tree: patch N alone ...": the fix the later patches rewrite), else
    None: a revert on top of the whole series."""
    m = re.search(r"^# tree: patch (\d+)", path.read_text(), re.M)
    return int(m.group(1)) if m else None


def revert_files():
    """The reverts on top of the whole series: tests/fixes/*.diff, but
    those of a patch alone (revert_tree)."""
    return sorted(p for p in FIXES.glob("*.diff") if revert_tree(p) is None)


def tree_reverts():
    """The reverts of a patch alone: each must be that patch, reversed."""
    return sorted(p for p in FIXES.glob("*.diff") if revert_tree(p) is not None)


def revert_name(path):
    return path.stem


def revert_path(name):
    return FIXES / f"{name}.diff"


def fix_branches():
    out = git("for-each-ref", "--format=%(refname:short)", "refs/heads/fix/").split()
    return [b[len("fix/"):] for b in out]


def render_revert(commit):
    """A revert file: its header lines from the commit's message body,
    then the commit's diff without blob ids."""
    body = git("log", "-1", "--format=%b", commit).strip("\n")
    header = "".join(f"# {line}\n" if line else "#\n" for line in body.splitlines())
    return header + normal_patch(git(*attributes("6.1"), "diff", "--no-renames", "--no-color",
                                     commit + "^", commit))


def revert_commit(tip, path, exact=False):
    """The revert file at path as a commit on top of tip."""
    text = path.read_text()
    header = [line[2:] if line.startswith("# ") else line[1:]
              for line in text.splitlines() if line.startswith("#")]
    tmp = Path(tempfile.mkdtemp(prefix="fix-", dir=BUILD))
    try:
        index = tmp / "index"
        git("read-tree", tip, index=index)
        r = git("apply", "--cached", "-", index=index, input=text, check=False)
        if r.returncode and not exact:
            # Context that moved: with one line of it, as patch's fuzz
            # would; make series-fixes writes the file exact again.
            r = git("apply", "--cached", "-C1", "-", index=index, input=text, check=False)
            if r.returncode == 0:
                log(f"{rel(path)} applies with reduced context only; make series-fixes rewrites it")
        if r.returncode:
            raise Fail(f"{rel(path)} does not apply to the series: {r.stderr.strip()}")
        tree = git("write-tree", index=index).strip()
    finally:
        shutil.rmtree(tmp)
    msg = f"revert {revert_name(path)}\n\n" + "\n".join(header) + "\n"
    return git("commit-tree", tree, "-p", tip, env=ident_env(BASE_DATE), input=msg).strip()


def make_fix_branches(tip):
    for p in revert_files():
        c = revert_commit(tip, p)
        name = f"fix/{revert_name(p)}"
        old = ref(name)
        if old and old != c and render_revert(old) != p.read_text():
            stamp = time.strftime("%Y%m%d-%H%M%S")
            git("update-ref", f"refs/backup/{name}/{stamp}", old)
            log(f"{name} held a revert that {rel(p)} does not: kept as refs/backup/{name}/{stamp}")
        git("update-ref", f"refs/heads/{name}", c)


def write_fixes(tip):
    """Carry each fix/<name> onto tip (three-way: lines that moved are
    found) and write its revert file."""
    changed = []
    for name in fix_branches():
        b = f"fix/{name}"
        c = ref(b)
        if ref(c + "^") != tip:
            wgit("6.1", "checkout", "-q", "--detach", tip)
            r = wgit("6.1", "cherry-pick", c, check=False, env=ident_env(BASE_DATE))
            if r.returncode:
                wgit("6.1", "cherry-pick", "--abort", check=False)
                wgit("6.1", "checkout", "-q", "series/6.1")
                raise Fail(f"the revert {name} does not carry onto the series: in {rel(worktree('6.1'))}, "
                           f"git checkout fix/{name} && git rebase series/6.1, resolve, "
                           "git checkout series/6.1, then make series-fixes\n" + (r.stdout + r.stderr).strip())
            git("update-ref", f"refs/heads/{b}", wgit("6.1", "rev-parse", "HEAD").strip())
            wgit("6.1", "checkout", "-q", "series/6.1")
            c = ref(b)
        path = revert_path(name)
        text = render_revert(c)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            changed.append(rel(path))
    for p in revert_files():
        if revert_name(p) not in fix_branches():
            log(f"{rel(p)}: no branch fix/{revert_name(p)}; left as it is")
    return changed


# --- 6.1 ---------------------------------------------------------------------------

def tree_61(force):
    b = base("6.1")
    log("applying patches/6.1 to base/6.1")
    tip = apply_patches(b, series_files("6.1"))[-1]
    checkout("6.1", "series/6.1", tip, force)
    git("update-ref", exported_ref("6.1"), tip)
    make_fix_branches(tip)
    return tip


def cover_text(kernel):
    subject, blurb = cover_blurb(PATCHES / "6.1" / "0000-cover-letter.patch")
    return subject, cover_612(blurb) if kernel == "6.12" else blurb


def render_61(b, head):
    commits = git("rev-list", "--reverse", f"{b}..{head}").split()
    return render_series("6.1", [f"{b}..{head}"], commits, *cover_text("6.1"))


def export_61(carry):
    st = tree_state("6.1")
    if st is None:
        raise Fail("no 6.1 series tree: make series-tree first")
    head, clean, _ = st
    if not clean:
        raise Fail(f"{rel(worktree('6.1'))}: commit or finish what is in progress first")
    if wgit("6.1", "symbolic-ref", "-q", "HEAD", check=False).stdout.strip() != "refs/heads/series/6.1":
        raise Fail(f"{rel(worktree('6.1'))} is not on branch series/6.1 (git checkout series/6.1)")
    b = base("6.1")
    subjects = git("log", "--format=%s", f"{b}..{head}").splitlines()
    bad = [x for x in subjects if re.match(r"(fixup|squash|amend)! ", x)]
    if bad:
        raise Fail(f"series/6.1 has commits to squash ({bad[0]}): "
                   f"git -C {rel(worktree('6.1'))} rebase -i --autosquash base/6.1")
    changed = write_files(PATCHES / "6.1", render_61(b, head), "*.patch")
    git("update-ref", exported_ref("6.1"), head)
    changed += write_fixes(head)
    report("6.1", changed)
    if carry:
        carry_612(force=False, check_exported=True)
        export_612()


def report(kernel, changed):
    if changed:
        log(f"patches/{kernel}: {len(changed)} files written: " + ", ".join(changed))
    else:
        log(f"patches/{kernel}: nothing changed")


# --- 6.12: the carry -------------------------------------------------------------------

def port_files():
    d = PATCHES / "6.12" / "port"
    out = {}
    for p in sorted(d.glob("[0-9][0-9][0-9][0-9]-*.patch")) if d.exists() else []:
        out.setdefault(int(p.name[:4]), []).append(p)
    return out


def notes_612():
    """The 6.12 notes, by subject, from patches/6.12 as exported last."""
    out = {}
    d = PATCHES / "6.12"
    if (d / "series").exists():
        for p in series_files("6.12"):
            t = p.read_text()
            n = notes_of(t)
            if n and n != SAME:
                out[subject_of(t)] = n
    return out


def cover_612(blurb):
    """The 6.12 cover letter's text: 6.1's, with the port's paragraph
    (patches/6.12/port/0000-cover.txt) after its first."""
    extra = COVER_EXTRA.read_text().strip("\n") if COVER_EXTRA.exists() else ""
    if not extra:
        return blurb
    first, _, rest = blurb.partition("\n\n")
    return f"{first}\n\n{extra}\n\n{rest}" if rest else f"{first}\n\n{extra}"


def carry_612(force, check_exported=False):
    """Rebuild series/6.12: the 6.1 commits of patches/6.1 carried onto
    base/6.12, each followed by its port fixup."""
    st = tree_state("6.12")
    if check_exported and st and not (st[1] and st[2]) and not force:
        raise Fail(f"{rel(worktree('6.12'))} holds work not exported: make series-export KERNEL=6.12 "
                   "first (or FORCE=1); the 6.1 series is exported, the 6.12 carry is not done")
    b61, b612 = base("6.1"), base("6.12")
    c61 = apply_patches(b61, series_files("6.1"), notes=False)
    checkout("6.12", "series/6.12", b612, force)
    notes = notes_612()
    ports = port_files()
    log(f"carrying the {len(c61)} commits of patches/6.1 onto base/6.12 in {rel(worktree('6.12'))}")
    lost = []
    for i, c in enumerate(c61, 1):
        subj = git("log", "-1", "--format=%s", c).strip()
        env = ident_env()
        env["GIT_COMMITTER_DATE"] = git("log", "-1", "--format=%ad", "--date=raw", c).strip()
        r = wgit("6.12", "cherry-pick", "--allow-empty", c, env=env, check=False)
        if r.returncode:
            files = wgit("6.12", "diff", "--name-only", "--diff-filter=U").split()
            wgit("6.12", "cherry-pick", "--abort", check=False)
            if not files:
                raise Fail(f"patch {i} ({subj}) cannot be carried onto 6.12:\n{(r.stdout + r.stderr).strip()}")
            # The conflicting hunks keep 6.12's side; the port's fixup of
            # the patch places them (checked below).
            wgit("6.12", "cherry-pick", "--allow-empty", "-X", "ours", c, env=env)
            lost.append((i, subj, files))
            log(f"  [{i}] {subj}: {', '.join(files)}: hunks conflict on 6.12, left to the port's fixup")
        pick = wgit("6.12", "rev-parse", "HEAD").strip()
        git("update-ref", f"refs/carry/6.12/pick/{i:04d}", pick)
        if subj in notes:
            git("notes", "add", "-f", "-m", notes[subj], pick)
        for p in ports.get(i, []):
            r = wgit("6.12", "am", "-q", str(p), env=env, check=False)
            if r.returncode:
                raise Fail(f"{rel(p)} does not apply after patch {i} ({subj}); it is left in progress in "
                           f"{rel(worktree('6.12'))}: fix it there (git am --show-current-patch=diff; "
                           "edit; git add -f; git am --continue), pick the rest (git cherry-pick), and "
                           "make series-export KERNEL=6.12\n" + (r.stdout + r.stderr).strip())
    missing = [x for x in lost if x[0] not in ports]
    if missing:
        raise Fail("hunks that conflict on 6.12 and that no port fixup places: " + "; ".join(
            f"patch {i} ({s}): {', '.join(f)}" for i, s, f in missing) +
            f"\nIn {rel(worktree('6.12'))}, make the 6.12 version and commit it as a fixup "
            "right after its pick (git commit --fixup, git rebase -i), then make series-export KERNEL=6.12")
    log(f"6.12 series tree: {rel(worktree('6.12'))} (branch series/6.12)")


def groups_612(b612, head):
    """series/6.12 as [(pick, [fixups])], in order; each fixup right after
    its pick (git rebase -i moves it there: keep it a commit of its own)."""
    out = []
    for line in git("log", "--reverse", "--format=%H %s", f"{b612}..{head}").splitlines():
        c, s = line.split(" ", 1)
        if s.startswith("fixup! "):
            if not out or git("log", "-1", "--format=%s", out[-1][0]).strip() != s[len("fixup! "):]:
                raise Fail(f"the fixup {c[:12]} ({s}) does not follow its pick: move it there with "
                           f"git -C {rel(worktree('6.12'))} rebase -i base/6.12, keeping it a pick")
            out[-1][1].append(c)
        elif re.match(r"(squash|amend)! ", s):
            raise Fail(f"{c[:12]} ({s}): the port's differences are fixup! commits of the pick they change")
        else:
            out.append((c, []))
    return out


def show(fmt, c):
    return git("log", "-1", f"--format={fmt}", c).strip()


def author_env(c, committer_date=None):
    """Commit as c's author, at c's date (or committer_date)."""
    date = git("log", "-1", "--format=%ad", "--date=raw", c).strip()
    return {"GIT_AUTHOR_NAME": show("%an", c), "GIT_AUTHOR_EMAIL": show("%ae", c),
            "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_NAME": show("%an", c),
            "GIT_COMMITTER_EMAIL": show("%ae", c), "GIT_COMMITTER_DATE": committer_date or date}


def render_612(head):
    """patches/6.12 and its port/ from series/6.12 at head: the port's
    fixups of each patch as one file, and the patches with them squashed."""
    b61, b612 = base("6.1"), base("6.12")
    c61 = apply_patches(b61, series_files("6.1"), notes=False)
    groups = groups_612(b612, head)
    if len(groups) != len(c61):
        raise Fail(f"series/6.12 has {len(groups)} commits besides fixups, patches/6.1 {len(c61)}: "
                   "a change of both series is made in 6.1 (make series-export carries it)")
    ports, squashed, parent = {}, [], b612
    for i, ((pick, fixups), c) in enumerate(zip(groups, c61), 1):
        subj = show("%s", c)
        if show("%B", pick) != show("%B", c):
            raise Fail(f"patch {i}: the message of the 6.12 pick differs from 6.1's ({subj}): change it "
                       "in 6.1, or say what differs in the pick's note (git notes edit)")
        carried = ref(f"refs/carry/6.12/pick/{i:04d}")
        if not carried or git("patch-id", "--stable", input=git("show", pick)).split()[:1] != \
                git("patch-id", "--stable", input=git("show", carried)).split()[:1]:
            raise Fail(f"patch {i} ({subj}): the pick in series/6.12 is not the 6.1 commit as carried "
                       "(make series-carry): 6.12's differences are fixup commits (git commit --fixup), "
                       "changes of both series are made in 6.1")
        end = fixups[-1] if fixups else pick
        tree = git("rev-parse", end + "^{tree}").strip()
        note = git("notes", "show", pick, check=False).stdout.strip()
        if fixups:
            # One port file per patch: its fixups together, with the
            # first one's message.
            fc = git("commit-tree", tree, "-p", pick, env=author_env(fixups[0], BASE_DATE),
                     input=show("%B", fixups[0]) + "\n").strip()
            (name, text), = format_patches("6.12", [f"{pick}..{fc}"], cover=False, notes=False,
                                           numbered=False).items()
            ports[f"{i:04d}-{name[5:]}"] = text
            if not note or note == SAME:
                raise Fail(f"patch {i} ({subj}) differs on 6.12 but its note does not say how: "
                           f"git -C {rel(worktree('6.12'))} notes edit {pick[:12]}")
        parent = git("commit-tree", tree, "-p", parent, env=author_env(c),
                     input=show("%B", c) + "\n").strip()
        git("notes", "add", "-f", "-m", note or SAME, parent)
        squashed.append(parent)
    files = render_series("6.12", [f"{b612}..{parent}"], squashed, *cover_text("6.12"))
    return files, ports


def export_612():
    st = tree_state("6.12")
    if st is None:
        raise Fail("no 6.12 series tree: make series-tree KERNEL=6.12 first")
    head, clean, _ = st
    if not clean:
        raise Fail(f"{rel(worktree('6.12'))}: commit or finish what is in progress first")
    files, ports = render_612(head)
    changed = write_files(PATCHES / "6.12" / "port", ports, "[0-9][0-9][0-9][0-9]-*.patch")
    changed = [f"port/{x}" for x in changed]
    changed += write_files(PATCHES / "6.12", files, "*.patch")
    git("update-ref", exported_ref("6.12"), head)
    report("6.12", changed)
    r = subprocess.run([str(TOP / "tests" / "series-sync")], capture_output=True, text=True)
    print((r.stdout + r.stderr).rstrip())
    if r.returncode:
        log("the two series differ other than patches/6.12/port.diff records: if the port changed "
            "on purpose, review the difference and run tests/series-sync --update")


# --- verify: what make check runs ----------------------------------------------------------

def verify():
    """patches/KERNEL is what the export makes of it (exporting it again
    changes nothing); for 6.1, each revert applies exactly and is what
    make series-fixes writes.  Print one line per problem."""
    problems = []
    k = KERNEL
    b = base(k)
    commits = apply_patches(b, series_files(k))
    if k == "6.1":
        files = render_61(b, commits[-1])
    else:
        # 6.12's messages and notes as the patches have them.
        files = render_series("6.12", [f"{b}..{commits[-1]}"], commits, *cover_text("6.12"))
    have = {p.name: p.read_text() for p in (PATCHES / k).glob("*.patch")}
    have["series"] = (PATCHES / k / "series").read_text()
    for n in sorted(set(files) | set(have)):
        if files.get(n) != have.get(n):
            problems.append(f"patches/{k}/{n}: not what make series-export writes of the series "
                            f"({'missing' if n not in have else 'extra' if n not in files else 'differs'})")
    if k == "6.1":
        for p in revert_files():
            try:
                c = revert_commit(commits[-1], p, exact=True)
                if render_revert(c) != p.read_text():
                    problems.append(f"{rel(p)}: applies, but is not what make series-fixes writes")
            except Fail as e:
                problems.append(f"{rel(p)}: {e}".splitlines()[0])
        for p in tree_reverts():
            n = revert_tree(p)
            try:
                c = revert_commit(commits[n - 1], p, exact=True)
                if git("rev-parse", c + "^{tree}") != git("rev-parse", (commits[n - 2] if n > 1 else b) + "^{tree}"):
                    problems.append(f"{rel(p)}: is not patch {n} reversed (make test-fixes builds it on patch {n} alone)")
            except Fail as e:
                problems.append(f"{rel(p)}: {e}".splitlines()[0])
    for x in problems:
        print(x)
    n = len(series_files(k)) + 1 + (len(revert_files()) + len(tree_reverts()) if k == "6.1" else 0)
    print(f"{n} files checked, {len(problems)} not as exported")
    return 1 if problems else 0


# --- commands ----------------------------------------------------------------------------

USAGE = """usage: vm/series COMMAND   (KERNEL=6.1, the default, or KERNEL=6.12; FORCE=1)

The series as commits, in one repository (build/series.git) with a work
tree per kernel (build/$KERNEL/series):

  tree     make the work tree: the pristine source as one commit (branch
           base/$KERNEL, the same commit every time) and the series on it
           (branch series/$KERNEL): for 6.1 patches/6.1 applied as git am
           does, and each revert of tests/fixes/ as a branch fix/<name>;
           for 6.12 the 6.1 commits carried onto 6.12, each followed by
           its port fixup (patches/6.12/port/NNNN-*.patch)
  export   write patches/$KERNEL from the tree, reproducibly (no commit
           ids, message ids, index lines, signature, or the date and name
           of whoever exports); for 6.1 then carry the reverts and the
           series onto 6.12 and export that too (CARRY=0: not 6.12)
  carry    rebuild the 6.12 tree from patches/6.1 and the port's fixups,
           and export it
  fixes    carry the fix/<name> branches onto series/6.1 and write their
           revert files (tests/fixes/<name>.diff)
  unexported  fail if a work tree holds what is not exported (make distclean)
  verify   check that patches/$KERNEL is what export writes of it (and,
           for 6.1, that each revert applies and is what fixes writes)

A tree that holds work not exported is not reset without FORCE=1; a head
that is replaced is kept as refs/backup/<kernel>/<time>."""


def main():
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0 if args else 2
    force = os.environ.get("FORCE") == "1"
    cmd = args[0]
    try:
        ensure_repo()
        if cmd == "tree":
            if KERNEL == "6.1":
                tip = tree_61(force)
                log(f"6.1 series tree: base/6.1 {ref('base/6.1')[:12]}, series/6.1 {tip[:12]} "
                    f"({len(series_files('6.1'))} commits), {len(fix_branches())} reverts as fix/<name>")
            else:
                carry_612(force)
                git("update-ref", exported_ref("6.12"), wgit("6.12", "rev-parse", "HEAD").strip())
                log(f"6.12 series tree: base/6.12 {ref('base/6.12')[:12]}, series/6.12: the 6.1 commits "
                    f"and {sum(len(v) for v in port_files().values())} port fixups")
            print(worktree(KERNEL))
        elif cmd == "export":
            if KERNEL == "6.1":
                export_61(carry=os.environ.get("CARRY", "1") != "0")
            else:
                export_612()
        elif cmd == "carry":
            carry_612(force, check_exported=True)
            export_612()
        elif cmd == "fixes":
            if tree_state("6.1") is None:
                raise Fail("no 6.1 series tree: make series-tree first")
            report("tests/fixes", write_fixes(ref("series/6.1")))
        elif cmd == "verify":
            return verify()
        elif cmd == "unexported":
            # For make distclean: a tree's commits not exported are not
            # thrown away unnoticed.
            held = []
            for k in ("6.1", "6.12"):
                st = tree_state(k)
                if st and not (st[1] and st[2]):
                    held.append(f"{rel(worktree(k))} (head {st[0][:12]})")
            if held:
                print("work not exported in: " + ", ".join(held) +
                      "; make series-export it, or give FORCE=1", file=sys.stderr)
                return 1
        else:
            print(USAGE, file=sys.stderr)
            return 2
    except Fail as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
