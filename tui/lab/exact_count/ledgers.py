"""Where a split count's parts are kept as they arrive: in memory, or in the run store.

Both keep a part once: a second result for a part (its worker died after sending it and the
part was run again, or another process counts the same N into the same store) is ignored, so
no prefix is counted twice. The store's ledger is found by the split's fingerprint, so the same
command, run again, finds what the last one kept; what it reads back is checked against the
split before it counts.
"""

from __future__ import annotations

from tui.lab.exact_count.plan import CountPlan
from tui.lab.store.count_store import CountStore
from tui.lab.store.count_tables import KeptPart
from tui.lab.store.errors import StoreError


class MemoryCountLedger:
    """The parts of a count in a dict: for tests, benchmarks, and counts that are not kept."""

    def __init__(self) -> None:
        self._parts: dict[int, KeptPart] = {}

    def done(self) -> dict[int, KeptPart]:
        """The parts kept, by their place in the split."""
        return dict(self._parts)

    def add(self, part: KeptPart) -> bool:
        """Keep one part unless it is kept already (then ``False``)."""
        if part.part in self._parts:
            return False
        self._parts[part.part] = part
        return True


class StoreCountLedger:
    """The parts of one count, in the run store.

    Args:
        store: The open store.
        count_id: The count's id in it.
        plan: Its split, which every part read back must fit.
    """

    def __init__(self, store: CountStore, count_id: int, plan: CountPlan) -> None:
        self.store = store
        self.count_id = count_id
        self.plan = plan

    @classmethod
    def for_plan(cls, store: CountStore, plan: CountPlan, fresh: bool = False) -> StoreCountLedger:
        """The ledger of ``plan``'s count, found or created; emptied first when ``fresh``."""
        count_id = store.count_for(plan.fingerprint, plan.n, len(plan.parts), plan.prefixes)
        if fresh:
            store.clear_count(count_id)
        return cls(store, count_id, plan)

    def done(self) -> dict[int, KeptPart]:
        """The parts kept, by their place in the split.

        Raises:
            StoreError: If a part kept is not one of the split's, or holds another number of
                prefixes: counted, it would make the total wrong.
        """
        kept = {}
        for part in self.store.parts(self.count_id):
            if part.part >= len(self.plan.parts) or part.prefixes != len(
                self.plan.parts[part.part]
            ):
                raise StoreError(
                    f"{self.store.path}: part {part.part} of count {self.count_id} is damaged "
                    f"(it does not fit the split of N = {self.plan.n}); --fresh starts over"
                )
            kept[part.part] = part
        return kept

    def add(self, part: KeptPart) -> bool:
        """Keep one part unless it is kept already (then ``False``)."""
        return self.store.add_part(self.count_id, part)

    def finish(self, total: int, fundamental: int) -> None:
        """Mark the count finished, with its result."""
        self.store.finish_count(self.count_id, total, fundamental)
