"""Headless Chromium (Debian's `chromium`) driven through the DevTools protocol on a pipe
(--remote-debugging-pipe: JSON messages ending in NUL on descriptors 3 and 4), with the standard
library only: no WebDriver, no websocket client. One browser opens several pages in turn; each
page's console errors and uncaught exceptions are collected, scripts are evaluated in it and
screenshots taken.

    with Browser() as browser:
        page = browser.open("file:///.../report.html")
        page.errors          # console errors, exceptions, failed loads: [] for a clean page
        page.evaluate("document.title")
        page.screenshot("shot.png", full=True)
"""
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

CANDIDATES = ("chromium", "chromium-browser", "google-chrome")


def find_chromium():
    for name in CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


class BrowserError(Exception):
    pass


class Browser:
    def __init__(self, executable=None, timeout=60, width=1400, height=1000):
        self.executable = executable or find_chromium()
        if not self.executable:
            raise BrowserError("chromium not found (Debian: apt-get install chromium)")
        self.timeout, self.width, self.height = timeout, width, height
        self.next_id = 0
        self.buffer = b""
        self.events = []

    def __enter__(self):
        self.profile = tempfile.mkdtemp(prefix="parbench-chromium-")
        to_browser_r, to_browser_w = os.pipe()
        from_browser_r, from_browser_w = os.pipe()
        # The browser reads commands on descriptor 3 and writes answers on 4: the shell puts the
        # pipes there and runs it.
        # The pipes' own descriptors are moved above 4 first, so that no redirection closes one.
        r, w = (fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_browser_r, from_browser_w))
        os.close(to_browser_r)
        os.close(from_browser_w)
        args = ["bash", "-c", f'exec "$0" "$@" 3<&{r} 4>&{w} {r}<&- {w}>&-', self.executable, "--headless", "--remote-debugging-pipe", "--no-sandbox",
                "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking", "--disable-sync",
                "--mute-audio", "--hide-scrollbars", f"--user-data-dir={self.profile}",
                f"--window-size={self.width},{self.height}", "about:blank"]
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        pass_fds=(r, w))
        os.close(r)
        os.close(w)
        self.write_fd, self.read_fd = to_browser_w, from_browser_r
        self.call("Target.setDiscoverTargets", {"discover": False})
        return self

    def __exit__(self, *exc):
        try:
            self.call("Browser.close", {}, wait=False)
        except Exception:  # noqa: BLE001 - closing anyway
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.write_fd)
        os.close(self.read_fd)
        shutil.rmtree(self.profile, ignore_errors=True)

    def send(self, method, params, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self.write_fd, json.dumps(message).encode() + b"\0")
        return self.next_id

    def receive(self, deadline):
        while b"\0" not in self.buffer:
            if time.monotonic() > deadline:
                raise BrowserError("chromium did not answer in time")
            ready, _, _ = select.select([self.read_fd], [], [], 0.5)
            if ready:
                chunk = os.read(self.read_fd, 1 << 20)
                if not chunk:
                    raise BrowserError("chromium closed the pipe (it crashed or did not start)")
                self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params, session=None, wait=True):
        wanted = self.send(method, params, session)
        if not wait:
            return None
        deadline = time.monotonic() + self.timeout
        while True:
            message = self.receive(deadline)
            if message.get("id") == wanted:
                if "error" in message:
                    raise BrowserError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def wait_for(self, method, session, deadline):
        while True:
            for k, event in enumerate(self.events):
                if event.get("method") == method and event.get("sessionId") == session:
                    return self.events.pop(k)
            self.events.append(self.receive(deadline))

    def open(self, url):
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget",
                            {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session, target)
        for domain in ("Runtime.enable", "Log.enable", "Page.enable", "Network.enable"):
            self.call(domain, {}, session)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": self.width, "height": self.height, "deviceScaleFactor": 1,
                   "mobile": False}, session)
        self.call("Page.navigate", {"url": url}, session)
        self.wait_for("Page.loadEventFired", session, time.monotonic() + self.timeout)
        page.collect()
        return page


class Page:
    def __init__(self, browser, session, target):
        self.browser, self.session, self.target = browser, session, target
        self.errors = []
        self.requests = []

    def collect(self):
        """Console errors and exceptions so far (from the browser's queued events)."""
        keep = []
        for event in self.browser.events:
            if event.get("sessionId") != self.session:
                keep.append(event)
                continue
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                self.errors.append("exception: " + str(
                    details.get("exception", {}).get("description") or details.get("text")))
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error",
                                                                                  "assert"):
                self.errors.append("console.error: " + " ".join(
                    str(a.get("value", a.get("description", ""))) for a in params.get("args",
                                                                                       [])))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                self.errors.append("log: " + params["entry"].get("text", ""))
            elif method == "Network.requestWillBeSent":
                self.requests.append(params.get("request", {}).get("url", ""))
        self.browser.events = keep

    def evaluate(self, expression):
        result = self.browser.call("Runtime.evaluate",
                                   {"expression": expression, "returnByValue": True,
                                    "awaitPromise": True}, self.session)
        if "exceptionDetails" in result:
            raise BrowserError(f"evaluate: {result['exceptionDetails']}")
        self.collect()
        return result.get("result", {}).get("value")

    def screenshot(self, path, full=False):
        params = {"format": "png"}
        if full:
            metrics = self.browser.call("Page.getLayoutMetrics", {}, self.session)
            size = metrics.get("cssContentSize") or metrics["contentSize"]
            params.update({"captureBeyondViewport": True,
                           "clip": {"x": 0, "y": 0, "width": size["width"],
                                    "height": min(size["height"], 16000), "scale": 1}})
        data = self.browser.call("Page.captureScreenshot", params, self.session)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        return path
