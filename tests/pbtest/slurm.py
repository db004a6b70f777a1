"""A one-node Slurm for the tests: munged, slurmctld and slurmd from Debian's packages, configured
in a scratch directory with ports of their own, started by `with test_slurm() as slurm:` and
stopped when the block ends on every path (an exception, a failed check's sys.exit, or the SIGTERM
Meson sends at a test's timeout). Nothing outside the scratch directory is written or read: no
/etc/slurm, no system munge socket, no systemd.

    with pbtest.slurm.test_slurm(cpus=4) as slurm:
        rc, out, err = slurm.run(["srun", "--mpi=pmi2", "-n", "2", parbench, "run", ...])
        state, exit_code = slurm.batch(job_script, output_file)

slurm.environment() is what srun, sbatch and sinfo need (SLURM_CONF); slurm.log() returns the
daemons' logs, for a failure message.
"""
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

DAEMONS = ("/usr/sbin/munged", "/usr/sbin/slurmctld", "/usr/sbin/slurmd")
CLIENTS = ("srun", "sbatch", "sinfo", "scontrol", "scancel")


def unavailable():
    """Why a test Slurm cannot start here (None when it can): the daemons must run as root."""
    missing = [p for p in DAEMONS if not os.path.exists(p)] + \
        [c for c in CLIENTS if shutil.which(c) is None]
    if missing:
        return "Slurm or munge is not installed (missing " + ", ".join(missing) + \
            "); scripts/setup.sh installs them"
    if os.geteuid() != 0:
        return "the test Slurm's daemons must run as root (scripts/test.sh runs as root in CI)"
    return None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class TestSlurm:
    def __init__(self, directory, cpus):
        self.directory = directory
        self.cpus = cpus
        self.node = socket.gethostname()
        self.conf = os.path.join(directory, "slurm.conf")
        self.munge_socket = os.path.join(directory, "munge", "socket")
        self.processes = []

    def path(self, *parts):
        return os.path.join(self.directory, *parts)

    def environment(self, extra=None):
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM_", "SBATCH_"))}
        env["SLURM_CONF"] = self.conf
        env.update(extra or {})
        return env

    def write_configuration(self):
        for sub in ("munge", "state", "spool", "log"):
            os.makedirs(self.path(sub), exist_ok=True)
        key = self.path("munge", "munge.key")
        with open(key, "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(key, 0o600)
        os.chmod(self.path("munge"), 0o700)
        open(self.path("plugstack.conf"), "w").close()
        # proctrack/linuxproc and task/none: no cgroups, which a container may not delegate.
        # The node claims `cpus` CPUs (config_overrides) so that -n 4 runs on two cores, as
        # mpiexec oversubscribes them in the other tests.
        with open(self.conf, "w") as f:
            f.write(f"""ClusterName=parbench-test
SlurmctldHost={self.node}(127.0.0.1)
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={self.munge_socket}
CredType=cred/munge
StateSaveLocation={self.path("state")}
SlurmdSpoolDir={self.path("spool")}
SlurmctldPidFile={self.path("slurmctld.pid")}
SlurmdPidFile={self.path("slurmd.pid")}
SlurmctldLogFile={self.path("log", "slurmctld.log")}
SlurmdLogFile={self.path("log", "slurmd.log")}
PlugStackConfig={self.path("plugstack.conf")}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName={self.node} NodeAddr=127.0.0.1 CPUs={self.cpus} State=UNKNOWN
PartitionName=test Nodes={self.node} Default=YES MaxTime=10 State=UP OverSubscribe=YES
""")

    def start_daemon(self, argv, log_name):
        log = open(self.path("log", log_name), "w")
        # A process group of its own: the stop signal reaches what a daemon started.
        p = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=self.environment(),
                             start_new_session=True)
        log.close()
        self.processes.append(p)
        return p

    def start(self, timeout=30):
        self.write_configuration()
        self.start_daemon(["/usr/sbin/munged", "--foreground", "--force",
                           "--key-file", self.path("munge", "munge.key"),
                           "--socket", self.munge_socket,
                           "--pid-file", self.path("munge", "munged.pid"),
                           "--seed-file", self.path("munge", "seed"),
                           "--log-file", self.path("log", "munged.log")], "munged.out")
        self.wait_for(lambda: os.path.exists(self.munge_socket), timeout, "munged's socket")
        self.start_daemon(["/usr/sbin/slurmctld", "-D", "-c", "-i", "-f", self.conf],
                          "slurmctld.out")
        self.start_daemon(["/usr/sbin/slurmd", "-D", "-f", self.conf], "slurmd.out")
        self.wait_for(self.node_is_idle, timeout, "the node to be idle in sinfo")

    def node_is_idle(self):
        for p in self.processes:
            if p.poll() is not None:
                raise RuntimeError(f"{p.args[0]} exited with status {p.returncode}\n" + self.log())
        r = subprocess.run(["sinfo", "-h", "-o", "%T"], capture_output=True, text=True,
                           env=self.environment())
        return r.returncode == 0 and r.stdout.strip() == "idle"

    def wait_for(self, condition, timeout, what):
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise RuntimeError(f"the test Slurm did not start: waited {timeout} s for "
                                   f"{what}\n" + self.log())
            time.sleep(0.2)

    def stop(self):
        # SIGKILL: the daemons keep nothing that outlives the scratch directory, and slurmd's and
        # slurmctld's orderly shutdown on SIGTERM took up to 2.5 s of the test's time.
        for p in reversed(self.processes):  # slurmd, slurmctld, then munged
            if p.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        self.processes = []

    def log(self):
        text = ""
        for name in sorted(os.listdir(self.path("log"))):
            with open(self.path("log", name), errors="replace") as f:
                text += f"---- {name} (end)\n" + "".join(f.readlines()[-20:])
        return text

    def run(self, argv, timeout=120, env=None, cwd=None):
        """(exit status, stdout, stderr) of a Slurm client command line."""
        p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout,
                           env=self.environment(env), cwd=cwd)
        return p.returncode, p.stdout, p.stderr


    def batch(self, script, output, timeout=120):
        """Submits a job script (sbatch -o OUTPUT) and waits for it to end; returns its
        (state, exit code) as `scontrol show job` says, e.g. ("COMPLETED", "0:0"). Polls
        every 0.2 s: `sbatch --wait` polls at growing intervals and costs seconds."""
        rc, out, err = self.run(["sbatch", "--parsable", "-o", output, script])
        if rc != 0:
            raise RuntimeError(f"sbatch exited {rc}: {err}\n" + self.log())
        job = out.strip().split(";")[0]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            rc, out, _ = self.run(["scontrol", "-o", "show", "job", job])
            fields = dict(f.split("=", 1) for f in out.split() if "=" in f)
            state = fields.get("JobState", "")
            if state and state not in ("PENDING", "RUNNING", "CONFIGURING", "COMPLETING"):
                return state, fields.get("ExitCode", "")
            time.sleep(0.2)
        self.run(["scancel", job])
        raise RuntimeError(f"job {job} did not end in {timeout} s\n" + self.log())


def _terminated(signum, frame):
    raise SystemExit(f"stopped by signal {signum}")  # unwinds through test_slurm's finally


@contextlib.contextmanager
def test_slurm(cpus=4):
    previous = signal.signal(signal.SIGTERM, _terminated)
    with tempfile.TemporaryDirectory(prefix="parbench-slurm-") as directory:
        slurm = TestSlurm(directory, cpus)
        try:
            slurm.start()
            yield slurm
        finally:
            slurm.stop()
            signal.signal(signal.SIGTERM, previous)
