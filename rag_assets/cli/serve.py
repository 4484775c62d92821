"""``rag-assets serve``: the question box in a browser (``rag_assets/web/app.py``) on this machine.

The answer engine is built before the server listens, so that a store that cannot serve is
refused at once (exit 2, one line, as ``ask`` says it) and the first question costs what a
question costs. The server listens on 127.0.0.1 only: it answers whoever reaches it.
"""

from __future__ import annotations

import argparse
import sys

from rag_assets.cli.ask import StoreFault, indexed_partitions

HOST = "127.0.0.1"
DEFAULT_PORT = 8765


def cmd_serve(args: argparse.Namespace) -> int:
    """Build the engine over the data folder, then serve until stopped (Ctrl-C)."""
    import uvicorn

    from rag_assets.web.app import Engine, create_app

    engine = Engine(args.data_dir, args.provider)
    try:
        partitions = indexed_partitions(args.data_dir)
        engine.warm()
    except StoreFault as fault:
        print(f"cannot serve: {fault}", file=sys.stderr)
        return 2
    print(f"rag-assets serve: {len(partitions)} partition(s) of {args.data_dir} at "
          f"http://{HOST}:{args.port}/ (Ctrl-C stops)", file=sys.stderr, flush=True)
    uvicorn.run(create_app(args.data_dir, args.dagster_url, engine), host=HOST, port=args.port,
                log_level="warning")
    return 0
