"""Presets: one config per published GA we learned from, DEAP's example, our default and our
memetic algorithm for large boards.

Each preset reproduces its system's representation, fitness, operators, rates, population,
replacement and stopping rule as published (the article, and its public source where the
article is silent). Where we deviate, :attr:`Preset.deviations` says exactly how and why.
``docs/presets.md`` shows them with measured success rates.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NamedTuple

from engine.config.config import Config
from engine.errors import ConfigError


class Preset(NamedTuple):
    """A named, documented config.

    Attributes:
        name: The name on the command line and in the form.
        summary: One line for ``queens presets``.
        source: Where the system was published.
        reproduces: What the preset reproduces, in a sentence or two.
        deviations: Each place where we differ from the source, and why.
        native_n: The board size the system was published for.
        allowed_n: The board sizes the system supports, or ``None`` for any.
        build: The config's values for a board size (checked when they become a config, with
            any overrides laid over them, so an override can bring a preset within limits).
    """

    name: str
    summary: str
    source: str
    reproduces: str
    deviations: tuple[str, ...]
    native_n: int
    allowed_n: tuple[int, ...] | None
    build: Callable[[int], dict[str, Any]]

    def config(self, n: int | None = None, **overrides: Any) -> Config:
        """The preset's config for board size ``n`` (its own N by default), with overrides.

        Raises:
            ConfigError: If the preset does not fit ``n`` or an override is not allowed.
        """
        return Config.from_mapping({**self.values(n), **overrides})

    def values(self, n: int | None = None) -> dict[str, Any]:
        """The preset's field values for board size ``n`` (its own N by default), unchecked:
        :meth:`config` checks them, with the overrides, as one config.

        Raises:
            ConfigError: If the preset does not support ``n``.
        """
        size = self.native_n if n is None else n
        if self.allowed_n is not None and size not in self.allowed_n:
            sizes = ", ".join(str(s) for s in self.allowed_n)
            raise ConfigError("n", size, f"the {self.name} preset supports N = {sizes} only")
        return self.build(size)


def _codeproject(n: int) -> dict[str, Any]:
    return dict(
        n=n,
        population=100,
        generations=10,
        encoding="permutation",
        fitness="collisions",
        selection="roulette",
        crossover="order-uniform",
        crossover_rate=0.7,
        children_per_couple=1,
        mutation="swap-gene",
        mutation_rate=0.01,
        survivor="generational",
    )


def _sheppard(n: int) -> dict[str, Any]:
    pool = 3 * n * n  # three times the number of symbols, one symbol per square
    return dict(
        n=n,
        population=pool,
        offspring=pool,
        encoding="squares",
        fitness="attacked",
        selection="uniform",
        crossover="one-gene",
        crossover_rate=1.0,
        children_per_couple=1,
        mutation="reset-one",
        mutation_rate=1.0,
        fallback=True,
        unique=True,
        survivor="threshold",
    )


def _towardsai(n: int) -> dict[str, Any]:
    return dict(
        n=n,
        population=4,
        encoding="integer",
        fitness="pairs",
        selection="roulette",
        crossover="single-point",
        crossover_rate=1.0,
        mutation="reset-one",
        mutation_rate=0.75,
        survivor="generational",
    )


def _queens_ai(n: int) -> dict[str, Any]:
    return dict(
        n=n,
        population=100,
        max_evals=10_000,
        encoding="permutation",
        fitness="exponential",
        selection="best-2-of-5",
        crossover="cut-crossfill",
        crossover_rate=0.9,
        clone_uncrossed=False,
        mutation="swap",
        mutation_rate=0.4,
        survivor="steady-state",
        offspring=2,
    )


def _deap(n: int) -> dict[str, Any]:
    return dict(
        n=n,
        population=300,
        generations=100,
        stop_when_solved=False,
        encoding="permutation",
        fitness="excess",
        selection="tournament",
        tournament_size=3,
        crossover="pmx",
        crossover_rate=0.5,
        mutation="shuffle-indexes",
        mutation_rate=0.2,
        gene_rate=min(1.0, 2.0 / n),
        survivor="generational",
    )


def _eiben_smith(n: int) -> dict[str, Any]:
    return dict(
        n=n,
        population=100,
        max_evals=10_000,
        encoding="permutation",
        fitness="pairs",
        selection="best-2-of-5",
        crossover="cut-crossfill",
        crossover_rate=1.0,
        mutation="swap",
        mutation_rate=0.8,
        survivor="steady-state",
        offspring=2,
    )


def _default(n: int) -> dict[str, Any]:
    return dict(n=n)


def _showcase(n: int) -> dict[str, Any]:
    return dict(n=n, population=100, mutation="swap", crossover_rate=0.9)


def _memetic(n: int) -> dict[str, Any]:
    return dict(
        n=n,
        population=4,
        crossover="cycle",
        local_search=n,
        greedy_start=True,
    )


PRESETS: Final[dict[str, Preset]] = {
    preset.name: preset
    for preset in (
        Preset(
            name="codeproject-2011",
            summary="CodeProject 2011 (C#): roulette, order-keeping uniform crossover, swaps",
            source="R. Bandara, 'Solving Eight Queens Puzzle with Genetic Algorithm in C#', "
            "CodeProject, 2011",
            reproduces="Permutations of 8 rows; fitness 28 minus diagonal collisions; a "
            "roulette wheel picks each child's two parents; with probability 0.7 the child is "
            "built gene by gene from a coin-chosen parent's first unused gene, else it clones "
            "the first parent; every gene swaps with another with probability 0.01; the "
            "children replace the population; 100 individuals, 10 generations (the UI's "
            "defaults), stop at fitness 28.",
            deviations=(
                "The program only checks the last individual of the list for fitness 28; we "
                "stop when any individual is solved (its check misses solutions by accident).",
                "Its random indices are rounded (int)(x + 0.5), which makes the first and last "
                "choices half as likely; ours are uniform.",
                "Its clones share their gene array with the parent, so mutating one clone "
                "mutates every copy; ours are independent copies.",
            ),
            native_n=8,
            allowed_n=(8,),
            build=_codeproject,
        ),
        Preset(
            name="sheppard",
            summary="Sheppard's genetic solver: square symbols, unique pool, crossover "
            "then mutation",
            source="C. Sheppard, 'Genetic Solver, part 2: 8 Queens' (handcraftsman/"
            "GeneticAlgorithms.Part2)",
            reproduces="N genes, each one of N*N squares; fitness counts, per occupied square, "
            "the directions in which a queen is seen, plus 10000 per stacked queen (negated "
            "here so higher is better); a pool of 3*N*N unique individuals; each generation "
            "makes pool-size children from two different random parents, by copying one gene "
            "of the second into the first, or, after a generation in which no child passed, by "
            "giving one gene a random square; children seen before are dropped unevaluated; a "
            "child passes when at least as good as a threshold that starts at the worst "
            "parent and rises with every better child; the best pool-size of parents and "
            "passed children survive; stop when solved.",
            deviations=(
                "Sheppard's children are made and judged one at a time; ours are made as a "
                "batch from the same pool and judged in the same order, so a child cannot be "
                "the parent of another child of its own generation (his cannot either: his "
                "pool is only updated between generations).",
            ),
            native_n=8,
            allowed_n=None,
            build=_sheppard,
        ),
        Preset(
            name="towardsai-5queens",
            summary="Towards AI 2021: 5 queens, rows may repeat, roulette, single-point",
            source="A. Assankhanov, 'Solving the 5-Queens Problem Using Genetic Algorithm', "
            "Towards AI, 2021",
            reproduces="Gene c is the row of the queen in column c, rows may repeat; fitness "
            "is the number of non-attacking pairs (10 at N = 5); 4 chromosomes; roulette "
            "selection of two couples; single-point crossover, two children per couple; the "
            "children are the new population; stop when the fitness reaches its maximum.",
            deviations=(
                "The article gives no mutation rate. Its worked example changes one gene in 3 "
                "of the 4 children, so a child mutates with probability 0.75, one gene to a "
                "random row.",
                "The article prints fitness 5 for [5 2 3 4 1]; that board has 6 attacking pairs "
                "(fitness 4), which is what we compute. Its other numbers match ours.",
            ),
            native_n=5,
            allowed_n=None,
            build=_towardsai,
        ),
        Preset(
            name="queens-ai",
            summary="queens_AI: 2 best of 5, cut-and-crossfill, steady state, 10,000 evals",
            source="R. Fernandes, L. Cavalcanti, C. Pena, C. Santos, queens_AI "
            "(RC-Dynamics/queens_AI)",
            reproduces="Permutations; exponential fitness 1 / (1 + collisions); one couple per "
            "iteration, chosen as the best 2 of 5 random individuals; with probability 0.9 "
            "cut-and-crossfill makes two children, else the couple has none; each child swaps "
            "two random genes with probability 0.4; children replace the worst when better "
            "(best fitness survivors); 100 individuals; stop when solved or after 10,000 "
            "fitness evaluations, the initial population included. N = 8, 16, 32 or 64.",
            deviations=(
                "queens_AI stores each row as a bit string of log2(N) bits; we store the row "
                "number. The operators act on whole genes in both, so the search is the same.",
            ),
            native_n=8,
            allowed_n=(8, 16, 32, 64),
            build=_queens_ai,
        ),
        Preset(
            name="deap-nqueens",
            summary="DEAP's examples/ga/nqueens.py: PMX, shuffle indexes, tournament of 3",
            source="DEAP, examples/ga/nqueens.py (eaSimple)",
            reproduces="20 queens as a permutation; cost: per diagonal, the queens beyond the "
            "first (negated here); 300 individuals; tournament of 3; consecutive couples cross "
            "by PMX with probability 0.5; each child mutates with probability 0.2 by swapping "
            "each gene with probability 2/N with another position; the children replace the "
            "population; 100 generations, no early stop.",
            deviations=(
                "DEAP's PMX draws two distinct cut points; ours draws the segment's two ends "
                "independently (a segment of one gene is a little more likely).",
                "DEAP re-evaluates only the children that changed; we evaluate every child, so "
                "our evaluation counts are higher for the same run.",
            ),
            native_n=20,
            allowed_n=None,
            build=_deap,
        ),
        Preset(
            name="eiben-smith",
            summary="Eiben & Smith's 8-queens tableau: cut-and-crossfill at 100%, swaps at "
            "80%, best 2 of 5, replace the worst",
            source="A. E. Eiben and J. E. Smith, 'Introduction to Evolutionary Computing', "
            "Springer, 2003 (2nd ed. 2015), section 2.4.1 (the eight-queens problem), Table 2.1",
            reproduces="The textbook's tableau: permutations of N rows; fitness the "
            "non-attacking pairs (the book minimises the attacking ones: the same order); "
            "cut-and-crossfill crossover with probability 1; swap mutation with probability "
            "0.8; parents the best 2 of 5 drawn at random; 100 individuals; 2 children a "
            "generation, which replace the worst; stop at a solution or after 10,000 fitness "
            "evaluations.",
            deviations=(
                "The book's cut point splits the parents in 1..N-1; ours is drawn in 0..N-1 "
                "as queens_AI draws it, so one couple in N passes on the second parent's order.",
                "The book replaces the worst members by the children whatever their fitness; "
                "ours keeps the best 100 of parents and children, so a child worse than every "
                "member does not get in (queens_AI's reading of 'replace worst').",
                "The 5 candidates are drawn with replacement, as queens_AI draws them.",
            ),
            native_n=8,
            allowed_n=None,
            build=_eiben_smith,
        ),
        Preset(
            name="default",
            summary="Ours: tournaments of 2, OX at 0.1, conflict-directed mutation, (mu + lambda)",
            source="this project",
            reproduces="The team's best: permutations, pairs fitness, 40 individuals, "
            "tournaments of 2, order crossover for 1 couple in 10, and a conflict-directed "
            "mutation (move an attacked queen to the best of 8 candidate swaps) on every child; "
            "the best 40 of parents and children survive; stop when solved.",
            deviations=(),
            native_n=8,
            allowed_n=None,
            build=_default,
        ),
        Preset(
            name="showcase",
            summary="The dashboard's opening run: the textbook permutation GA on 28 queens",
            source="this project, after the textbook permutation GA (A. E. Eiben and J. E. "
            "Smith, 'Introduction to Evolutionary Computing', its eight-queens example)",
            reproduces="Permutations, pairs fitness, 100 individuals, tournaments of 2, order "
            "crossover for 9 couples in 10, one swap of two genes per child, the best 100 of "
            "parents and children survive; stop when solved. Slow enough to watch: at N = 28 "
            "it needs a hundred generations or two, where the default GA needs a handful.",
            deviations=(),
            native_n=28,
            allowed_n=None,
            build=_showcase,
        ),
        Preset(
            name="memetic",
            summary="Ours, for large N: greedy start, 4 individuals, children improved by "
            "min-conflicts local search",
            source="this project, after R. Sosic and J. Gu, 'Efficient local search with "
            "conflict minimization: a case study of the n-queens problem', IEEE TKDE 6(5), 1994",
            reproduces="A memetic algorithm: the default GA (permutations, pairs fitness, "
            "tournaments of 2, the conflict-directed mutation, (mu + lambda) survivors) with 4 "
            "individuals, cycle crossover for 1 couple in 10 (a cycle child of two near-"
            "solutions is mostly one of them, so it stays near a solution), a greedy start "
            "(column by column, up to 64 random unused rows tried, the first on two free "
            "diagonals taken, leaving a handful of conflicts) and, on every child, a Lamarckian "
            "local search: up to N swaps, each moving an attacked queen to the best of 16 "
            "random partners when that lowers the conflicts, the improved child kept; stop "
            "when solved. Both are compiled loops (numba), one swap or one column at a time, "
            "as Sosic and Gu's program runs.",
            deviations=(
                "Sosic and Gu swap an attacked queen with the first random partner that lowers "
                "the conflicts; ours tries 16 and takes the best, and gives a child up after 16 "
                "passes over its attacked queens without a swap (the GA carries it further).",
                "Their greedy start tries random rows until one fits for all but the last few "
                "columns; ours tries at most 64 per column, and the columns that find none take "
                "the rows left over at the end.",
            ),
            native_n=10_000,
            allowed_n=None,
            build=_memetic,
        ),
    )
}
"""Every preset by name."""


def preset_named(name: str) -> Preset:
    """The preset called ``name``.

    Raises:
        ConfigError: If there is no such preset.
    """
    try:
        return PRESETS[name]
    except KeyError:
        raise ConfigError("preset", name, f"choose one of {', '.join(PRESETS)}") from None
