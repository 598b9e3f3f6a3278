"""A small Chrome DevTools Protocol client over aiohttp websockets, for headless Chromium tests.

It launches Debian's ``chromium`` headless with a fresh profile and no background
networking, attaches to the first page and records console messages, uncaught exceptions,
log entries, dialogs and every network request while it loads pages.

Everything chromium writes goes into one temporary directory the :class:`Browser` owns: the
profile, and (as chromium's TMPDIR) the ``org.chromium.Chromium.*`` directory of its
process-singleton socket, which chromium leaves behind whenever it is ended by a signal.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import aiohttp

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-extensions",
    "--hide-scrollbars",
    "--window-size=1280,900",
)


SOCKET_PATH_MAX = 107
"""The longest path of a Unix socket; chromium aborts when its singleton socket's is longer."""
SINGLETON_SOCKET = "org.chromium.Chromium.XXXXXX/SingletonSocket"


def chromium_available() -> bool:
    """True when a chromium binary is installed."""
    return Path(CHROMIUM).is_file()


class Browser:
    """Headless Chromium driven over CDP: ``async with Browser() as page: await page.load(url)``.

    Its temporary directory is made on entering and removed on leaving the block, also when
    entering fails; at the latest when the object is collected or the interpreter exits.
    """

    def __init__(self) -> None:
        self.home: tempfile.TemporaryDirectory[str] | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self.session: aiohttp.ClientSession | None = None
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.ids = itertools.count(1)
        self.pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.events: list[dict[str, Any]] = []
        self.reader: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Browser:
        self.home = tempfile.TemporaryDirectory(prefix="lb-chromium-", ignore_cleanup_errors=True)
        try:
            await self._start(Path(self.home.name))
        except BaseException:
            await self.__aexit__()
            raise
        return self

    async def _start(self, home: Path) -> None:
        """Start chromium with its profile and its TMPDIR in ``home``; attach to its page."""
        if len(f"{home}/{SINGLETON_SOCKET}") > SOCKET_PATH_MAX:
            raise RuntimeError(f"the temporary directory {home} is too long a path for chromium's socket")
        profile = home / "profile"
        self.process = subprocess.Popen(
            [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-port=0", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "TMPDIR": str(home)},
        )
        port_file = profile / "DevToolsActivePort"
        for _ in range(300):
            if port_file.is_file() and port_file.read_text().count("\n") >= 1:
                break
            if self.process.poll() is not None:
                raise RuntimeError(f"chromium exited with status {self.process.returncode}")
            await asyncio.sleep(0.05)
        else:
            raise RuntimeError("chromium did not open its DevTools port")
        port = int(port_file.read_text().splitlines()[0])
        self.session = aiohttp.ClientSession()
        async with self.session.get(f"http://127.0.0.1:{port}/json/list") as response:
            targets = await response.json()
        page = next(t for t in targets if t.get("type") == "page")
        self.ws = await self.session.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0)
        self.reader = asyncio.create_task(self._read())
        for domain in ("Page", "Runtime", "Log", "Network"):
            await self.send(f"{domain}.enable")

    async def __aexit__(self, *exc: object) -> None:
        if self.reader:
            self.reader.cancel()
        if self.ws:
            await self.ws.close()
        if self.session:
            await self.session.close()
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.home is not None:
            home = Path(self.home.name)
            self.home.cleanup()
            # Chromium's helper processes (crash handler, zygote) outlive the browser by a moment
            # and may still write into its TMPDIR: remove what they leave until none is left.
            for _ in range(100):
                if not home.exists():
                    break
                await asyncio.sleep(0.05)
                shutil.rmtree(home, ignore_errors=True)
            self.home = None

    async def _read(self) -> None:
        assert self.ws is not None
        async for message in self.ws:
            data = json.loads(message.data)
            if "id" in data and data["id"] in self.pending:
                self.pending.pop(data["id"]).set_result(data)
            elif "method" in data:
                self.events.append(data)
                if data["method"] == "Page.javascriptDialogOpening":
                    asyncio.get_running_loop().create_task(self.send("Page.handleJavaScriptDialog", accept=False))

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one command and return its result (raises on a protocol error)."""
        assert self.ws is not None
        ident = next(self.ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[ident] = future
        await self.ws.send_str(json.dumps({"id": ident, "method": method, "params": params}))
        reply = await asyncio.wait_for(future, timeout=30)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    async def load(self, url: str) -> None:
        """Navigate to ``url`` and wait for its load event and the deferred script to run."""
        start = len(self.events)
        result = await self.send("Page.navigate", url=url)
        if result.get("errorText"):
            raise RuntimeError(f"cannot open {url}: {result['errorText']}")
        for _ in range(600):
            if any(e["method"] == "Page.loadEventFired" for e in self.events[start:]):
                return
            await asyncio.sleep(0.02)
        raise RuntimeError(f"{url} did not finish loading")

    async def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        result = await self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def screenshot(self) -> bytes:
        """A PNG screenshot of the viewport."""
        return base64.b64decode((await self.send("Page.captureScreenshot", format="png"))["data"])

    def problems(self) -> list[str]:
        """Console errors, uncaught exceptions, error log entries and dialogs seen so far."""
        found = []
        for event in self.events:
            method, params = event["method"], event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert", "warning"):
                found.append(f"console.{params['type']}: {params.get('args')}")
            elif method == "Runtime.exceptionThrown":
                found.append(f"exception: {params.get('exceptionDetails')}")
            elif method == "Log.entryAdded" and params["entry"].get("level") in ("error", "warning"):
                found.append(f"log: {params['entry'].get('text')} {params['entry'].get('url', '')}")
            elif method == "Page.javascriptDialogOpening":
                found.append(f"dialog: {params.get('message')}")
        return found

    def requests(self) -> list[str]:
        """Every URL the page requested."""
        return [e["params"]["request"]["url"] for e in self.events if e["method"] == "Network.requestWillBeSent"]
