"""How much memory a run may need, estimated from its config before anything is allocated.

:func:`memory_needs` splits the estimate by the field that makes it grow, so that a config
over this machine's share is refused by :func:`memory_error` naming the field to lower.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Final

from engine.errors import ConfigError
from engine.operators.crossover import COMPILED_CYCLE_FROM
from engine.operators.greedy_start import BYTES_PER_COLUMN as GREEDY_BYTES_PER_COLUMN
from engine.operators.greedy_start import NARROW_GENES_FROM
from engine.operators.local_search import BYTES_PER_CHILD_GENE as SEARCH_BYTES_PER_CHILD_GENE
from engine.operators.local_search import BYTES_PER_SEARCHED_COLUMN as SEARCHED_BYTES_PER_COLUMN
from engine.operators.local_search import SEARCHED_COPIES_PER_GENE, compiled_children_apply
from engine.solutions.archive import KNOWN_TOTALS

if TYPE_CHECKING:
    from engine.config.fields import ConfigFields

MEMORY_SHARE: Final = 0.5
"""A run may plan to use at most this share of the machine's memory."""

BYTES_PER_GENE: Final = 8 * 24
"""Bytes a run touches per gene of the population: parents, children, line counts and the
temporaries of the operators, as int64 (an over-estimate measured on the default config)."""

BYTES_PER_CANDIDATE: Final = 8 * 24
"""Bytes the conflict mutation touches per child and candidate move: its ``(children,
candidates)`` temporaries (measured with tracemalloc: about 130 bytes, whatever N)."""

BYTES_PER_TOURNAMENT_DRAW: Final = 8 * 3
"""Bytes a tournament touches per entrant drawn: the ``(picks, size)`` indices, their fitness,
and the winners' gather, as 64-bit values."""

BYTES_PER_SEEN: Final = 8 * 4
"""Bytes ``unique`` keeps per child ever generated: one 64-bit hash in a table at most half
full, twice during a resize."""

BYTES_PER_SOLUTION_GENE: Final = 8 * 2
"""Bytes the solution archive keeps per gene of a solution (its buffer grows by doubling)."""

BYTES_PER_SOLUTION: Final = 8 * 6
"""Bytes the solution archive keeps per solution besides its genes: hashes and their merges."""

CROSSOVER_BYTES_PER_CHILD_GENE: Final = 20
"""Bytes a crossover's temporaries may take per gene of the children, every couple crossing
(measured with tracemalloc: 17 for the cycle crossover, whose pointer doubling holds several
int64 copies of the crossed couples)."""

COMPILED_CYCLE_BYTES_PER_CHILD_GENE: Final = 3
"""The same for the compiled cycle crossover of large boards, made where the children are
(engine.compiled.cycle_kernel): an int32 inverse and a flag, 5 bytes a position per couple."""

SEARCHED_BYTES_PER_CANDIDATE: Final = 8
"""Bytes a run whose children are searched one at a time draws per candidate move: one
64-bit partner (the moves are scored in the compiled loop, with no temporaries)."""

COMPILED_KERNELS_BYTES: Final = 256 * 2**20
"""Memory a run with compiled kernels pays once for them: numba, its LLVM library and the
kernels (measured: 115 MB of resident memory above numpy's in a run at N = 1,000, up to 0.1 GB
more in a run at N = 10^6 after the engine's tests, or in a first run, which compiles them)."""


def _blame(*factors: tuple[str, int]) -> tuple[str, int]:
    """The field with the largest factor of a product: the one to lower."""
    return max(factors, key=lambda factor: factor[1])


def _evaluation_bound(config: ConfigFields) -> int | None:
    """The most children a run can evaluate before a count budget stops it, if it has one."""
    bounds: list[int] = []
    if config.max_evals is not None:
        # The last generation may overshoot by one generation's children and newcomers.
        bounds.append(config.max_evals + config.children_per_generation + config.population)
    if config.generations is not None:
        per_generation = config.children_per_generation + config.population
        bounds.append(config.population + config.generations * per_generation)
    return min(bounds) if bounds else None


def _add_need(needs: dict[str, tuple[int, str]], name: str, size: int, what: str) -> None:
    """Add ``size`` bytes for ``what`` to the field ``name``'s share of the estimate."""
    held, said = needs.get(name, (0, ""))
    needs[name] = (held + size, f"{said} + {what}" if said else what)


def memory_needs(config: ConfigFields) -> dict[str, tuple[int, str]]:
    """What a run may allocate, by the field that makes it grow: ``{field: (bytes, what)}``.

    Python integers throughout, so no value overflows the estimate. ``unique`` and ``harvest``
    are counted up to what a count budget (generations, max-evals) or the known number of
    solutions allows; a run stopped only by time or stagnation cannot be bounded in advance,
    so for it they are left out.
    """
    n, population = config.n, config.population
    children = config.children_per_generation
    needs: dict[str, tuple[int, str]] = {}
    genes = max(population, children) * n
    name, _ = _blame(("population", population), ("n", n))
    if config.offspring is not None and config.offspring > population:
        name, _ = _blame(("offspring", config.offspring), ("n", n))
    # A run whose children are searched one at a time in compiled code
    # (engine.large_n.memetic_children)
    # holds its genes and one board's counts; the others, the numpy operators' temporaries.
    searched = compiled_children_apply(config)
    if searched:
        needs[name] = _searched_genes(config, genes)
    else:
        needs[name] = (genes * BYTES_PER_GENE, f"max(P, children) x N = {genes:,} genes")
    if config.mutation == "conflict":
        moves = children * config.candidates
        name, _ = _blame(("candidates", config.candidates), ("offspring", children))
        if name == "offspring" and config.offspring is None:
            name = "population"
        per_move = SEARCHED_BYTES_PER_CANDIDATE if searched else BYTES_PER_CANDIDATE
        total = needs.get(name, (0, ""))[0] + moves * per_move
        needs[name] = (total, f"children x candidates = {moves:,} candidate moves")
    if config.selection == "tournament":
        couples = -(-children // max(1, config.children_per_couple))
        draws = 2 * couples * config.tournament_size
        name, _ = _blame(("tournament_size", config.tournament_size), ("population", children))
        _add_need(
            needs,
            name,
            draws * BYTES_PER_TOURNAMENT_DRAW,
            f"parents x tournament size = {draws:,} entrants drawn",
        )
    compiled_cycle = config.crossover == "cycle" and n >= COMPILED_CYCLE_FROM
    if config.local_search > 0 or config.greedy_start or compiled_cycle:
        _add_need(needs, "n", COMPILED_KERNELS_BYTES, "the compiled kernels")
    if searched:
        _add_need(needs, "n", n * SEARCHED_BYTES_PER_COLUMN, f"line counts of a board of {n:,}")
    elif config.local_search > 0:
        child_genes = children * n
        name, _ = _blame(("population", children), ("n", n))
        _add_need(
            needs,
            name,
            child_genes * SEARCH_BYTES_PER_CHILD_GENE,
            f"local search over {child_genes:,} child genes",
        )
    if config.greedy_start:
        _add_need(
            needs,
            "n",
            n * GREEDY_BYTES_PER_COLUMN,
            f"greedy start over {n:,} columns",
        )
    _add_remembered(needs, config)
    return needs


def _searched_genes(config: ConfigFields, genes: int) -> tuple[int, str]:
    """The genes of a run whose children are searched one at a time, at their peak.

    That is the larger of two moments: the solutions recorded at the generation's end
    (:data:`SEARCHED_COPIES_PER_GENE` copies), and a crossover, one copy fewer (no solutions
    yet) with its scratch, every couple crossing. A greedy start's large boards have int32
    genes (engine.operators.greedy_start).
    """
    n, children = config.n, config.children_per_generation
    width = 4 if config.greedy_start and n >= NARROW_GENES_FROM else 8
    held = genes * width * SEARCHED_COPIES_PER_GENE
    what = f"max(P, children) x N = {genes:,} genes"
    if config.crossover_rate > 0:
        per_crossed = CROSSOVER_BYTES_PER_CHILD_GENE
        if config.crossover == "cycle" and n >= COMPILED_CYCLE_FROM:
            per_crossed = COMPILED_CYCLE_BYTES_PER_CHILD_GENE
        crossing = genes * width * (SEARCHED_COPIES_PER_GENE - 1) + children * n * per_crossed
        if crossing > held:
            return crossing, f"{what} while {children * n:,} child genes cross"
    return held, what


def _add_remembered(needs: dict[str, tuple[int, str]], config: ConfigFields) -> None:
    """Add what ``unique`` and ``harvest`` remember, where a budget bounds it."""
    n = config.n
    evaluated = _evaluation_bound(config)
    if evaluated is None and (config.time_limit is not None or config.stagnation is not None):
        return  # what is remembered grows with time: no count to estimate from
    if config.unique and evaluated is not None:
        needs["unique"] = (evaluated * BYTES_PER_SEEN, f"{evaluated:,} children remembered")
    if config.harvest:
        known = KNOWN_TOTALS.get(n, (None, None))[0]
        found = [b for b in (known, None if evaluated is None else 8 * evaluated) if b is not None]
        if found:
            stored = min(found)
            per_solution = n * BYTES_PER_SOLUTION_GENE + BYTES_PER_SOLUTION
            needs["harvest"] = (stored * per_solution, f"up to {stored:,} solutions of N = {n}")


def memory_error(config: ConfigFields) -> ConfigError | None:
    """The run's memory estimated before anything is allocated: an error blaming the biggest
    part when it is over this machine's share, else ``None``."""
    if config.n < 1 or config.population < 2 or config.candidates < 1:
        return None
    needs = memory_needs(config)
    needed = sum(size for size, _ in needs.values())
    budget = int(physical_memory() * MEMORY_SHARE)
    if needed <= budget:
        return None
    name, (size, what) = max(needs.items(), key=lambda item: item[1][0])
    advice = {
        "unique": "set a smaller --generations or --max-evals, or turn unique off",
        "harvest": "lower N, or set a budget (--generations, --max-evals, --time-limit)",
    }.get(name, f"lower {name.replace('_', '-')}")
    return ConfigError(
        name,
        getattr(config, name),
        f"{what} need about {_gibibytes(size)}; this machine allows "
        f"{_gibibytes(budget)} for a run: {advice}",
    )


def _gibibytes(size: int) -> str:
    """``12.5 GiB``, or ``> 10^30 GiB`` for sizes a float cannot print sensibly."""
    if size >= 2**30 * 10**30:
        return "more than 10^30 GiB"
    return f"{size / 2**30:,.1f} GiB"


def physical_memory() -> int:
    """Bytes of memory on this machine (8 GiB when it cannot be read)."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):
        return 8 * 2**30
