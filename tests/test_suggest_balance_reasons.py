"""Issue 37, fifth round: a step of the balance order that is not bought says why, with the real reason. Before, every
such step without a build within a quarter over the budget read "no build that passes has it within a quarter over
the budget" and "left unspent: $9,196: ... within a quarter over the budget", on answers with thousands unspent
where money was not what kept it out. On the real catalog; each reason checked against the catalog's own data."""

from __future__ import annotations

import re

from rigplan.catalog.loader import Catalog
from rigplan.model.assumptions import Assumptions
from rigplan.model.parts import Cooler, Cpu, Kind, Memory, Motherboard
from rigplan.rules import check
from rigplan.rules.platforms import platforms
from rigplan.suggest import Question, suggest

WALL_240 = Assumptions(wall_voltage=240.0, wall_amps=30.0)


def _line(spending: list[str], start: str) -> str:
    got = [line for line in spending if line.startswith(start)]
    assert len(got) == 1, spending
    return got[0]


def test_a_rating_no_priced_cooler_has_is_said_as_such_not_as_money(catalog: Catalog) -> None:
    """$12,000, 4 GPUs: a Threadripper (the 7960X on TRX50 since the sixth round) with money unspent; no priced cooler
    that fits its socket (by the socket's mount: TR4-SP3 coolers fit sTR5) has a rating in the data, so the cooler step
    is not bought for want of a rating, and the answer says so."""
    sug = suggest(catalog, Assumptions(), Question(budget=12000, gpus=4))
    cpu = sug.build.first(Kind.CPU)
    assert isinstance(cpu, Cpu) and cpu.socket
    line = _line(sug.spending, "not bought: a cooler rated")
    assert f"fit the {cpu.socket} CPU" in line and "has a rating in the data" in line, line
    n = int(re.search(r"none of the (\d+) priced coolers", line).group(1))  # type: ignore[union-attr]
    # The premise, from the catalog: priced coolers for the socket exist, and none of them is rated.
    mount = platforms().mount(cpu.socket)
    for_socket = [
        c
        for c in catalog.of_kind(Kind.COOLER)
        if isinstance(c, Cooler) and c.price and any(platforms().mount(s) == mount for s in (c.sockets or ()))
    ]
    assert 0 < n <= len(for_socket)
    assert all(c.rated_tdp_w is None for c in for_socket)
    left = sug.spending[-1]
    assert left.startswith("left unspent:") and "not for want of money" in left and "quarter" not in left
    assert sug.total <= 12000 and check(sug.build).ok


def test_memory_no_priced_board_holds_in_one_kit_names_the_largest_kit(catalog: Catalog) -> None:
    """$25,000 at 240 V: two 96 GB cards want 384 GB of RAM; the answer's board holds 256 GB and the largest priced
    kit it takes is the answer's own (256 GB since the step buys toward its target, suggest.ram_step): said with both
    figures, not as a budget the answer is far under."""
    sug = suggest(catalog, WALL_240, Question(budget=25000))
    board = sug.build.first(Kind.MOTHERBOARD)
    kit = sug.build.first(Kind.MEMORY)
    assert isinstance(board, Motherboard) and isinstance(kit, Memory) and kit.capacity_gb
    line = _line(sug.spending, "bought: system RAM ")  # bought toward the target, the rest not: why said
    assert f"the largest priced kit the answer's board takes is {kit.capacity_gb:g} GB" in line, line
    assert f"it holds at most {board.max_memory_gb:g} GB" in line
    wanted = float(re.search(r"system RAM \d+ GB toward (\d+) GB", line).group(1))  # type: ignore[union-attr]
    assert kit.capacity_gb < wanted  # the premise: the answer's kit is short of the step
    assert sug.total < 25000 - 1000 and "not for want of money" in sug.spending[-1]


def test_a_step_beyond_a_quarter_over_the_budget_gives_its_price(catalog: Catalog) -> None:
    """$450: 16 cores are out of reach by far; the answer says what the cheapest build with them costs (an exact
    search at any price), and that figure is more than a quarter over the budget."""
    sug = suggest(catalog, Assumptions(), Question(budget=450))
    line = _line(sug.spending, "not bought: CPU cores >= 16")
    got = re.search(r"with it costs \$(\d[\d,]*\d)", line)
    assert got is not None, line
    price = float(got.group(1).replace(",", ""))
    assert price > 450 * 1.25
    assert f"takes a build of ${got.group(1)}" in sug.spending[-1]


def test_a_step_bought_at_the_same_price_is_not_called_already(catalog: Catalog) -> None:
    """$3,000 in a Mini-ITX tower: the link step swaps the A520 board for a B550 one at the same price; the answer
    says a part was swapped, not that the build had it already (the first board had PCIe 3.0)."""
    sug = suggest(catalog, Assumptions(), Question(budget=3000, case_form="Mini ITX Tower"))
    line = _line(sug.spending, "bought: a PCIe 4.0 or newer link")
    assert line.endswith("(a part swapped for one at the same price)") or "(+$" in line, line
    assert "(already)" not in line
    two = suggest(catalog, Assumptions(), Question(budget=8000, gpus=2))
    assert _line(two.spending, "bought: a board that wires every GPU").endswith("(already)")
