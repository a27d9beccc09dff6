#!/usr/bin/env python3
# The reference service under hostile clients (found in a review of
# 155add0): it must answer each with a 4xx and stay up, memory bounded.
#   1. a 400 KB "[[[[..." start-session body (killed it: json-glib recurses);
#   2. the same nesting hidden behind a comment, and other JSON json-glib
#      tolerates beyond RFC 8259 (comments, single quotes);
#   3. a declared 300 MB body (it used to buffer all of it: 604 MB peak):
#      413 at once, nothing read;
#   4. a chunked 3 MiB body: 413, memory bounded.
# Only 127.0.0.1; every wait bounded.
import os, socket, subprocess, sys, time

SERVICE = os.path.join(os.environ["GST_SESSION_BUILD_ROOT"], "tools",
                       "service", "gst-session-service")
failures = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what, flush=True)
    if not ok:
        failures.append(what)


def request(port, head, body=b"", send_body=True):
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.settimeout(10)
        try:
            s.sendall(head)
            if send_body:
                s.sendall(body)
        except OSError:
            pass
        data = b""
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
                if b"\r\n\r\n" in data:
                    h, _, rest = data.partition(b"\r\n\r\n")
                    n = [int(l.split(b":")[1]) for l in h.split(b"\r\n")
                         if l.lower().startswith(b"content-length:")]
                    if n and len(rest) >= n[0]:
                        break
        except OSError:
            pass
        return data


def post(port, path, body):
    return request(port, b"POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: "
                   b"application/json\r\nContent-Length: %d\r\nConnection: "
                   b"close\r\n\r\n" % (path, len(body)), body)


def status(answer):
    line = answer.split(b"\r\n", 1)[0].split()
    return int(line[1]) if len(line) > 1 else 0


def healthz(port):
    return status(request(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\n"
                          b"Connection: close\r\n\r\n")) == 200


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    return 0


p = subprocess.Popen([SERVICE, "--port", "0"], stdout=subprocess.PIPE,
                     stderr=subprocess.DEVNULL, text=True)
port = int(p.stdout.readline().strip().rsplit(":", 1)[1])
rss0 = rss_mb(p.pid)

deep = b"[" * 200000 + b"]" * 200000
a = post(port, b"/world/start-session", deep)
check(status(a) == 400 and b"nested deeper" in a,
      f"400 KB of nesting: {status(a)} {a[-80:]!r}")
check(p.poll() is None and healthz(port), "the service is up after it")

hidden = b'{"sdp": /*"*/ ' + b"[" * 100000 + b"]" * 100000 + b"}"
a = post(port, b"/world/start-session", hidden)
check(status(a) == 400 and b"comment" in a,
      f"nesting hidden behind a comment: {status(a)} {a[-80:]!r}")
for body in [b"{'sdp': 'x', 'type': 'offer'}", b'{"sdp": "x" // c\n}',
             b'{"sdp": "x", "type": "offer",}']:
    a = post(port, b"/world/start-session", body)
    check(status(a) == 400 and b"not strict JSON" in a,
          f"{body!r}: {status(a)}")
check(p.poll() is None and healthz(port), "the service is up after them")

t0 = time.monotonic()
a = request(port, b"POST /queue/reference/echo HTTP/1.1\r\nHost: x\r\n"
            b"Content-Type: application/json\r\nContent-Length: 314572800"
            b"\r\n\r\n", send_body=False)
took = time.monotonic() - t0
check(status(a) == 413 and took < 2,
      f"a declared 300 MB body: {status(a)} in {took * 1000:.0f} ms, nothing read")

chunk = b"x" * 65536
chunked = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(48))
a = request(port, b"POST /queue/reference/echo HTTP/1.1\r\nHost: x\r\n"
            b"Content-Type: application/json\r\nTransfer-Encoding: chunked"
            b"\r\nConnection: close\r\n\r\n", chunked + b"0\r\n\r\n")
check(status(a) == 413, f"a chunked 3 MiB body: {status(a)}")
peak = rss_mb(p.pid)
check(peak - rss0 < 50, f"memory: {rss0} MB -> {peak} MB")
check(p.poll() is None and healthz(port), "the service is up at the end")

p.terminate()
try:
    rc = p.wait(15)
except subprocess.TimeoutExpired:
    p.kill()
    rc = p.wait()
check(rc == 0, f"SIGTERM: exit status {rc}")
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
