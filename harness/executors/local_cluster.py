"""A throwaway multi-node Ray cluster on a loopback address, for tests and benchmarks.

Each node is a ``ray start --block`` process in its own session, so stopping the cluster
ends exactly the processes it started (the node and everything it spawned, found by
session id) and touches no other Ray on the machine. Its files live in a temporary
directory of its own. Nodes advertise ``127.0.0.2`` (Ray replaces ``127.0.0.1`` with the
machine's network address; any other loopback address is kept) and require a token made
for this cluster: Ray 2.60's gRPC servers listen on every interface regardless, so the
token is what keeps other hosts out. A driver joins with :attr:`LocalRayCluster.auth_env`
in its environment.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NODE_IP = os.environ.get("FRONTIER_RAY_NODE_IP", "127.0.0.2")
REPO_ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _ray_cli() -> list[str]:
    found = shutil.which("ray", path=str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""))
    if found is None:
        raise RuntimeError("the 'ray' command is not installed; pip install 'frontier-evals[ray]'")
    return [found]


class LocalRayCluster:
    """``nodes`` Ray nodes on 127.0.0.1 with ``cpus_per_node`` CPUs and bounded memory each."""

    def __init__(
        self,
        nodes: int = 2,
        cpus_per_node: int = 1,
        memory_mb: int = 1024,
        object_store_mb: int = 96,
        start_timeout_s: float = 120.0,
    ) -> None:
        if nodes < 1 or cpus_per_node < 1:
            raise ValueError("a cluster needs at least one node of at least one CPU")
        self.nodes = nodes
        self.cpus_per_node = cpus_per_node
        self.memory_mb = memory_mb
        self.object_store_mb = object_store_mb
        self.start_timeout_s = start_timeout_s
        self.port = 0
        self.auth_env = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32)}
        self.temp_dir: Path | None = None
        self._processes: list[subprocess.Popen[bytes]] = []

    @property
    def address(self) -> str:
        """``127.0.0.1:<gcs port>``, for ``ray.init(address=...)`` and ``--ray-address``."""
        return f"{NODE_IP}:{self.port}"

    def _node_args(self) -> list[str]:
        return [
            "--block",
            "--node-ip-address",
            NODE_IP,
            "--num-cpus",
            str(self.cpus_per_node),
            "--memory",
            str(self.memory_mb * 1024 * 1024),
            "--object-store-memory",
            str(self.object_store_mb * 1024 * 1024),
        ]

    def _spawn(self, args: list[str], log_name: str) -> subprocess.Popen[bytes]:
        assert self.temp_dir is not None
        env = dict(
            os.environ,
            **self.auth_env,
            RAY_USAGE_STATS_ENABLED="0",
            PYTHONPATH=os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])),
        )
        log = (self.temp_dir / log_name).open("wb")
        process = subprocess.Popen(
            [*_ray_cli(), "start", *args], stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
        log.close()
        self._processes.append(process)
        return process

    def _wait_for_port(self, process: subprocess.Popen[bytes], deadline: float) -> None:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"the Ray head exited with {process.returncode}:\n{self.logs()}")
            try:
                with socket.create_connection((NODE_IP, self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"the Ray head did not listen on {self.address} in {self.start_timeout_s} s")

    def start(self) -> LocalRayCluster:
        """Start the head, then the other nodes; returns once every node process is up (see ``wait_for_nodes``)."""
        self.temp_dir = Path(tempfile.mkdtemp(prefix="frray-"))
        self.port = free_port()
        deadline = time.monotonic() + self.start_timeout_s
        head = self._spawn(
            [
                "--head",
                "--port",
                str(self.port),
                "--include-dashboard=false",
                "--disable-usage-stats",
                "--temp-dir",
                str(self.temp_dir / "ray"),
                *self._node_args(),
            ],
            "head.log",
        )
        self._wait_for_port(head, deadline)
        for number in range(1, self.nodes):
            self._spawn(["--address", self.address, *self._node_args()], f"node{number}.log")
        return self

    def wait_for_nodes(self) -> None:
        """Block until every node has joined; needs this process connected (``ray.init(address=...)``
        with :attr:`auth_env` in ``os.environ``)."""
        import ray

        deadline = time.monotonic() + self.start_timeout_s
        while time.monotonic() < deadline:
            if sum(1 for node in ray.nodes() if node.get("Alive")) >= self.nodes:
                return
            for process in self._processes:
                if process.poll() is not None:
                    raise RuntimeError(f"a Ray node exited with {process.returncode}:\n{self.logs()}")
            time.sleep(0.3)
        raise RuntimeError(f"only some of {self.nodes} Ray nodes joined in {self.start_timeout_s} s:\n{self.logs()}")

    def logs(self) -> str:
        """The tail of each node's ``ray start`` output."""
        if self.temp_dir is None:
            return ""
        parts = []
        for path in sorted(self.temp_dir.glob("*.log")):
            parts.append(f"--- {path.name}\n" + path.read_text(errors="replace")[-2000:])
        return "\n".join(parts)

    def stop(self) -> None:
        """End every process the nodes started (workers first, the head last) and remove the files."""
        for process in reversed(self._processes):
            _end_session(process, grace_s=3.0)
        self._processes.clear()
        if self.temp_dir is not None:
            shutil.rmtree(self.temp_dir, ignore_errors=True)
            self.temp_dir = None

    def __enter__(self) -> LocalRayCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _session_members(session: int) -> list[int]:
    """Live (not zombie) processes of the session ``session`` (Linux ``/proc``; empty elsewhere)."""
    members = []
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = entry.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 3 and int(fields[3]) == session and fields[0] != "Z":
            members.append(int(entry.parent.name))
    return members


def _signal_all(pids: list[int], sig: signal.Signals) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)


def _end_session(process: subprocess.Popen[bytes], grace_s: float) -> None:
    """End the node process and every process in the session it leads (Ray workers lead their own groups)."""
    members = _session_members(process.pid) or [process.pid]
    _signal_all(members, signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline and _session_members(process.pid):
        time.sleep(0.2)
    _signal_all(_session_members(process.pid), signal.SIGKILL)
    try:
        process.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
