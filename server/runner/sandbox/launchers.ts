import fs from 'node:fs';
import { isValidEnvName } from '../../../src/domain/settingEnv';
import type { JobLimits } from '../executor';
import { prlimitArgs } from './limits';
import { SANDBOX_PROJECT, SANDBOX_TMP, SANDBOX_UID, type MountOp } from './layout';

// The two ways to build the same sandbox from layout.ts's list. Both give the launcher
// descriptor 3 to say "namespaces ready" and 4 to hear "go on" once the runner has set up the
// network. bwrap says its child's pid on 3 (--info-fd) before that child has configured its own
// loopback, and slirp4netns brings `lo` up as it attaches (which adds 127.0.0.1 and makes bwrap's
// RTM_NEWADDR fail), so on bwrap the job's own shell says "ready" on 5 once bwrap is done and
// waits for "go" itself. unshare says both on 3 (its set-up does `lo` first). bwrap binds by path
// as the outer uid (so what it binds must be reachable for that uid: outerUid.ts); unshare's
// set-up binds as the server's uid, then drops to the outer uid (unshareMaps).
//
// The closed environment (issue 36): the launchers, their set-up shell, slirp4netns and `ip` all
// start from LAUNCHER_ENV, which the server writes. The job's script and variables travel on
// descriptor 6, read only by the job's own shell (innerCommand) once it is inside every namespace
// as the job's uid with no capabilities: a variable a tenant chose (LD_PRELOAD, BASH_ENV,
// NODE_OPTIONS…) can then only ever reach the tenant's own processes, and the script never
// stands on a command line the host's `ps` could show.

export const FD_READY = 3;
export const FD_GO = 4;
/** bwrap: the job's shell says it is set up and not yet started */
export const FD_INNER = 5;
/** the job's payload: its script, a NUL, then each variable as NAME=value and a NUL */
export const FD_PAYLOAD = 6;

/** The whole environment of every process the runner starts outside the sandbox. */
export const LAUNCHER_ENV: Readonly<Record<string, string>> = Object.freeze({ PATH: '/usr/sbin:/usr/bin:/sbin:/bin' });

/** Where the job's shell writes the script it read, inside the job's private /tmp. */
const SANDBOX_SCRIPT = `${SANDBOX_TMP}/.job/script`;

/** The bytes for FD_PAYLOAD; undefined when the script or a variable cannot travel (a NUL, a bad name). */
export function jobPayload(script: string, env: Readonly<Record<string, string>>): Buffer | undefined {
  if (script.includes('\0')) return undefined;
  const entries = Object.entries(env);
  if (entries.some(([name, value]) => !isValidEnvName(name) || value.includes('\0'))) return undefined;
  return Buffer.from(`${script}\0${entries.map(([name, value]) => `${name}=${value}\0`).join('')}`);
}

/**
 * What runs inside, as the job's uid: (on bwrap) say ready and wait for go; read the script into
 * the job's private /tmp and the variables into an array from FD_PAYLOAD; close every inherited
 * descriptor (an open directory of the host would lead out with `..`); export the variables —
 * only now, and only into this shell and what it starts — then run the script under the kernel's
 * per-process limits. Nothing after the exports expands unquoted or looks up a command by PATH,
 * so no variable can change what this shell does. On unshare this shell is the pid namespace's
 * init, which the kernel spares from any signal it has no handler for, so it runs the script as
 * its child and passes a stop on (bwrap keeps an init of its own); when it exits, the kernel ends
 * every process the job left behind.
 */
export function innerCommand(limits: JobLimits, kind: 'bwrap' | 'unshare'): string[] {
  const limited = `/usr/bin/prlimit ${prlimitArgs(limits).join(' ')} -- /bin/bash ${SANDBOX_SCRIPT}`;
  const closeAndRun = [
    ...(kind === 'bwrap' ? [`echo ready >&${FD_INNER} && read -r _ <&${FD_GO} || exit 1`] : []),
    `IFS= read -r -d '' script <&${FD_PAYLOAD} || { echo "sandbox: the job's script did not arrive" >&2; exit 1; }`,
    `/usr/bin/mkdir -m 0700 ${SANDBOX_SCRIPT.slice(0, SANDBOX_SCRIPT.lastIndexOf('/'))} && printf '%s' "$script" > ${SANDBOX_SCRIPT} || exit 1`,
    `unset script; mapfile -d '' -t vars <&${FD_PAYLOAD}`,
    'for f in /proc/$$/fd/*; do n=${f##*/}; if [ "$n" -gt 2 ] 2>/dev/null; then eval "exec $n>&-" 2>/dev/null; fi; done',
    `cd ${SANDBOX_PROJECT} || exit 1`,
    // a name bash keeps read-only (UID, SHELLOPTS…) cannot be exported; the runner never sends one
    'for v in "${vars[@]}"; do export -- "$v" 2>/dev/null; done',
    ...(kind === 'bwrap'
      ? [`exec ${limited}`]
      : [`${limited} & job=$!`, `trap 'kill -TERM "$job" 2>/dev/null' TERM INT HUP`, 'while :; do wait "$job"; s=$?; kill -0 "$job" 2>/dev/null || exit "$s"; done']),
  ].join('\n');
  return ['/bin/bash', '-c', closeAndRun, 'job'];
}

/**
 * The size of each writable memory-backed mount (/tmp, /dev/shm): no more than the job's memory
 * limit, and the watch counts what they hold as the job's memory (sandbox.ts), so filling them
 * ends the job with the memory limit's name instead of growing the host's shared memory.
 */
function tmpfsBytes(limits: JobLimits): number {
  return limits.memoryMb * 1024 * 1024;
}

export function bwrapArgs(ops: readonly MountOp[], inner: readonly string[], limits: JobLimits): string[] {
  const size = String(tmpfsBytes(limits));
  const args = [
    '--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net', '--unshare-cgroup-try',
    '--cap-drop', 'ALL',
    '--uid', String(SANDBOX_UID), '--gid', String(SANDBOX_UID), '--hostname', 'sandbox',
    '--die-with-parent', '--new-session',
    '--proc', '/proc', '--dev', '/dev', '--size', size, '--tmpfs', '/dev/shm', '--size', size, '--tmpfs', SANDBOX_TMP,
  ];
  // /dev holds device nodes and mount points only: the job writes to /dev/shm, never beside it
  args.push('--remount-ro', '/dev');
  for (const o of ops) {
    if (o.op === 'ro') args.push('--ro-bind', o.source, o.target);
    else if (o.op === 'rw' || o.op === 'socket') args.push('--bind', o.source, o.target);
    else if (o.op === 'tmpfs') args.push('--tmpfs', o.target);
    else args.push('--symlink', o.link, o.target);
  }
  args.push('--remount-ro', '/', '--chdir', SANDBOX_PROJECT, '--info-fd', String(FD_READY), '--', ...inner);
  return args;
}

// Runs in a fresh user namespace whose uid map the runner writes once the namespace exists
// (unshareMaps): a tmpfs root, the layout's mounts by path, a /proc of its own pid namespace with
// /proc/sys read-only, a minimal /dev, pivot_root, then a drop to the outer uid and a nested user
// namespace that maps it to the job's uid, with no capabilities left. The job's environment
// arrives on descriptor 5, never on a command line others could read.
const UNSHARE_SETUP = String.raw`set -eu
echo ns >&3
read -r _ <&4
root=$1; shift
mount -t tmpfs -o mode=0755,nosuid,nodev,size=1m sandbox "$root"
# the job's own /tmp before the layout's mounts, as bwrap does: a read-only path below it stays seen
mkdir -p "$root$TMPDIR_IN"; mount -t tmpfs -o mode=1777,nosuid,nodev,size=$TMPFS_BYTES tmpfs "$root$TMPDIR_IN"
# every mount point first, with one mkdir (each command costs a fork and an exec)
dirs=("$root/proc" "$root/dev") files=() plan=("$@")
i=0
while [ "${"$"}{plan[i]}" != -- ]; do
  case ${"$"}{plan[i]} in
    ro|rw) if [ -d "${"$"}{plan[i+1]}" ]; then dirs+=("$root${"$"}{plan[i+2]}"); else t=${"$"}{plan[i+2]}; dirs+=("$root${"$"}{t%/*}"); files+=("$root$t"); fi; i=$((i+3)) ;;
    tmpfs) dirs+=("$root${"$"}{plan[i+1]}"); i=$((i+2)) ;;
    symlink) t=${"$"}{plan[i+2]}; dirs+=("$root${"$"}{t%/*}"); i=$((i+3)) ;;
    *) echo "sandbox: unknown mount ${"$"}{plan[i]}" >&2; exit 1 ;;
  esac
done
mkdir -p "${"$"}{dirs[@]}"
for f in "${"$"}{files[@]}"; do : > "$f"; done
while [ "$1" != -- ]; do
  case $1 in
    ro) mount --no-canonicalize --rbind "$2" "$root$3"; mount --no-canonicalize -o remount,bind,ro "$root$3"; shift 3 ;;
    rw) mount --no-canonicalize --rbind "$2" "$root$3"; shift 3 ;;
    tmpfs) mount -t tmpfs -o mode=0755,nosuid,nodev tmpfs "$root$2"; shift 2 ;;
    symlink) ln -s "$2" "$root$3"; shift 3 ;;
  esac
done
shift
mount -t proc -o nosuid,nodev,noexec proc "$root/proc"
mount --bind "$root/proc/sys" "$root/proc/sys"; mount -o remount,bind,ro "$root/proc/sys"
mount -t tmpfs -o mode=0755,nosuid,size=64k tmpfs "$root/dev"
for d in null zero full random urandom tty; do : > "$root/dev/$d"; mount --bind "/dev/$d" "$root/dev/$d"; done
ln -s /proc/self/fd "$root/dev/fd"
mkdir "$root/dev/shm" "$root/.oldroot"; mount -t tmpfs -o mode=1777,nosuid,nodev,size=$TMPFS_BYTES tmpfs "$root/dev/shm"
ip link set lo up
hostname sandbox
cd "$root"; pivot_root . .oldroot; cd /
umount -l /.oldroot; rmdir /.oldroot
mount -o remount,ro,bind /
mount -o remount,ro,bind /dev
echo ready >&3
read -r _ <&4
uid_in=$UID_IN groups_in=$GROUPS_IN
# the job's shell starts with no variable at all: it exports the job's own from its payload
export -n PATH TMPDIR_IN GROUPS_IN UID_IN TMPFS_BYTES
exec /usr/bin/setpriv --reuid=$uid_in --regid=$uid_in $groups_in -- /usr/bin/unshare --user --map-user=${SANDBOX_UID} --map-group=${SANDBOX_UID} -- /usr/bin/setpriv --no-new-privs -- "$@"
`;

export function unshareArgs(ops: readonly MountOp[], rootDir: string, inner: readonly string[]): string[] {
  const plan: string[] = [];
  for (const o of ops) {
    if (o.op === 'ro' || o.op === 'rw') plan.push(o.op, o.source, o.target);
    else if (o.op === 'socket') plan.push('rw', o.source, o.target);
    else if (o.op === 'tmpfs') plan.push('tmpfs', o.target);
    else plan.push('symlink', o.link, o.target);
  }
  return ['--user', '--mount', '--pid', '--fork', '--ipc', '--uts', '--net', '--kill-child', '--', '/bin/bash', '-c', UNSHARE_SETUP, 'sandbox-setup', rootDir, ...plan, '--', ...inner];
}

/**
 * The uid and gid maps of the unshare launcher's namespace, written by the runner. A root server
 * maps itself at 0 (the set-up binds paths only root may reach, and mount(8) wants uid 0) and the
 * workspace's outer uid at 1, which the set-up drops to, losing every capability, before the job's
 * nested namespace maps it to 65534. Any other server has only its own uid to map, at 0.
 */
export function unshareMaps(pid: number, outer: number | undefined): void {
  const own = process.getuid?.() ?? 0;
  const ownGid = process.getgid?.() ?? 0;
  if (outer !== undefined && own === 0) {
    fs.writeFileSync(`/proc/${pid}/uid_map`, `0 0 1\n1 ${outer} 1\n`);
    fs.writeFileSync(`/proc/${pid}/gid_map`, `0 0 1\n1 ${outer} 1\n`);
  } else {
    fs.writeFileSync(`/proc/${pid}/setgroups`, 'deny');
    fs.writeFileSync(`/proc/${pid}/uid_map`, `0 ${own} 1\n`);
    fs.writeFileSync(`/proc/${pid}/gid_map`, `0 ${ownGid} 1\n`);
  }
}

/** The setup's own environment: LAUNCHER_ENV and what the server writes, nothing of the job's. A root server's groups are dropped; others cannot drop theirs. */
export function unshareSetupEnv(outer: number | undefined, limits: JobLimits): Record<string, string> {
  const root = outer !== undefined;
  return { ...LAUNCHER_ENV, TMPDIR_IN: SANDBOX_TMP, TMPFS_BYTES: String(tmpfsBytes(limits)), UID_IN: root ? '1' : '0', GROUPS_IN: root ? '--clear-groups' : '--keep-groups' };
}
