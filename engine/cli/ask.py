"""`chartside ask [--mode agent|llm] [--json] TEXT`: one turn, streamed to stdout."""

from __future__ import annotations

import json
import sys

from engine.events import Alerts, Done, Token


def register(subparsers) -> None:
    parser = subparsers.add_parser("ask", help="ask one question (streams the answer)")
    parser.add_argument("text", nargs="+", help="the question")
    parser.add_argument("--mode", choices=["agent", "llm"], default=None, help="agent (default) or plain llm chat")
    parser.add_argument("--json", action="store_true", help="print one JSON object (chat turn format)")
    parser.set_defaults(func=run)


def run(args) -> int:
    from engine.facade import Engine

    engine = Engine()
    text = " ".join(args.text)
    result: dict = {}
    try:
        for event in engine.ask(text, mode=args.mode):
            if isinstance(event, Alerts) and not args.json:
                for alert in event.alerts:
                    print(f"[{alert.get('kind', 'alert')}] {alert.get('message', '')}", flush=True)
            elif isinstance(event, Token) and not args.json:
                sys.stdout.write(event.text)
                sys.stdout.flush()
            elif isinstance(event, Done):
                result = event.result
    except KeyboardInterrupt:
        engine.cancel()
        print("\n[stopped]", file=sys.stderr)
        return 130
    finally:
        engine.close()
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        sources = result.get("sources") or []
        print()
        for number, source in enumerate(sources, 1):
            print(f"[{number}] {source.get('title', source.get('doc_id'))} — {source.get('url', '')}")
    return 0 if result.get("answer") else 1
