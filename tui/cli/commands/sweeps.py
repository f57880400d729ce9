"""``queens sweeps``: list the sweeps kept in the run store."""

from __future__ import annotations

import argparse
import sys
import time

from tui.cli.store_flags import add_store_flag, reporting_store_errors


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``sweeps`` to the ``queens`` subcommands."""
    parser = commands.add_parser("sweeps", help="list the kept sweeps")
    add_store_flag(parser)
    parser.set_defaults(handler=run)


@reporting_store_errors
def run(args: argparse.Namespace) -> int:
    """Handle ``queens sweeps``: one line per sweep (id, when, runs kept, axes); a store that
    cannot be read (a damaged plan, say) is one line on stderr and exit 2."""
    from tui.lab.store import RunStore

    store = RunStore.open(args.store)  # a StoreError is one line, exit 2 (the decorator)
    with store:
        sweeps = store.sweeps()
    if not sweeps:
        print(f"no sweep kept in {store.path} yet (queens sweep --help)")
        return 0
    lines = [f"{'id':>4}  {'created':16}  {'runs':>15}  axes"]
    for sweep in sweeps:
        plan = sweep["plan"] if isinstance(sweep["plan"], dict) else {}
        seeds = plan.get("seeds", {})
        cells = len(plan.get("cells", []))
        total = cells * int(seeds.get("count", 0))
        created = time.strftime("%Y-%m-%d %H:%M", time.localtime(sweep["created"]))
        state = "" if sweep["finished"] else " (partial)"
        axes = "; ".join(
            f"{axis['name']}={','.join(str(v) for v in axis['values'])}"
            for axis in plan.get("axes", [])
        )
        runs = f"{sweep['results']:,}/{total:,}{state}"
        lines.append(f"{sweep['id']:>4}  {created:16}  {runs:>15}  {axes}")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0
