"""A stand-in for ``python -m vllm.entrypoints.openai.api_server`` (tests of the start-up
progress, no vLLM): replays a real start-up log to stdout, then serves ``GET /v1/models``.

    python tests/fake_vllm_server.py --port N --replay LOG [--delay S] [--then serve|crash|hang]
"""

from __future__ import annotations

import argparse
import http.server
import json
import sys
import time


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--replay", required=True, help="log lines to print, in order")
    ap.add_argument("--delay", type=float, default=0.0, help="seconds between lines")
    ap.add_argument("--stop-after", default=None, help="stop replaying after the first line containing this")
    ap.add_argument("--then", choices=("serve", "crash", "hang"), default="serve")
    args = ap.parse_args()
    with open(args.replay, encoding="utf-8", newline="") as f:
        for line in f:
            sys.stdout.write(line)
            sys.stdout.flush()
            if args.stop_after and args.stop_after in line:
                break
            time.sleep(args.delay)
    if args.then == "crash":
        print("(EngineCore pid=1) ERROR 11-30 20:47:41 [core.py:1] EngineCore failed to start.", flush=True)
        print("RuntimeError: not enough memory for the KV cache", flush=True)
        sys.exit(3)
    if args.then == "hang":
        time.sleep(3600)

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            if self.path != "/v1/models":
                self.send_error(404)
                return
            body = json.dumps({"object": "list", "data": [{"id": "fake", "object": "model"}]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a: object) -> None:
            pass

    http.server.HTTPServer(("127.0.0.1", args.port), Handler).serve_forever()


if __name__ == "__main__":
    main()
