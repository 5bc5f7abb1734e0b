""" "Other" line items of a build (issue 29): priced things that are not catalog parts.

Case fans, an OS licence, cables and risers, a UPS, a monitor, shipping or assembly: a buyer pays for them, so they
count in the build's total and its cost of ownership, but no compatibility rule reads them. Each has a name, one of a
small fixed set of categories, a quantity, a price (with currency, date and source like every price) and, optionally,
the power it draws at the wall. Unknown power is None ("not counted"), never 0.
"""

from __future__ import annotations

import math
from enum import StrEnum
from typing import Annotated

from pydantic import BeforeValidator, Field, field_validator

from rigplan.model.common import Frozen, NoNegativeZero, Price

# Above this a quantity is a typo (the same bound as a part's: rigplan.model.build.MAX_QUANTITY).
MAX_OTHER_QUANTITY = 64
# A line item drawing more than a 16 A / 230 V circuit (3,680 W) cannot be plugged in beside the workstation.
MAX_OTHER_WATTS = 3680.0


def _finite_watts(value: object) -> object:
    """NaN or infinity is refused with that reason (pydantic's bound check would say "less than 3680")."""
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("watts must be a finite number")
    return value


Watts = Annotated[float, BeforeValidator(_finite_watts), Field(ge=0, le=MAX_OTHER_WATTS), NoNegativeZero]


class OtherCategory(StrEnum):
    FAN = "fan"
    OS = "os"
    CABLE = "cable"
    UPS = "ups"
    MONITOR = "monitor"
    PERIPHERAL = "peripheral"
    ACCESSORY = "accessory"
    SERVICE = "service"
    OTHER = "other"

    @property
    def label(self) -> str:
        return OTHER_LABELS[self]


OTHER_LABELS: dict[OtherCategory, str] = {
    OtherCategory.FAN: "Case fans",
    OtherCategory.OS: "Operating system",
    OtherCategory.CABLE: "Cables and risers",
    OtherCategory.UPS: "UPS",
    OtherCategory.MONITOR: "Monitor",
    OtherCategory.PERIPHERAL: "Peripherals",
    OtherCategory.ACCESSORY: "Accessory",
    OtherCategory.SERVICE: "Services",
    OtherCategory.OTHER: "Other",
}


# Categories whose items plug in and draw power: with no watts given, the costs say "not counted" for these. An OS
# licence, shipping or assembly draws nothing, and saying so would be noise.
POWERED = frozenset({OtherCategory.FAN, OtherCategory.UPS, OtherCategory.MONITOR})
# Categories fed by the build's PSU (case fans hang off the board's headers or the PSU's cables): their watts count in
# the PSU's load (rules/power.py) and reach the wall through its efficiency. The rest (a UPS, a monitor) plug into the
# wall: their watts are added at the wall by the cost model (costs/analysis.py), never both.
PSU_FED = frozenset({OtherCategory.FAN})


class OtherItem(Frozen):
    """One "Other" line: not a part; its price and power count in the costs. Only storage-sas reads it (a SAS HBA
    listed here gives the build SAS ports, rules/server.py)."""

    name: str = Field(min_length=1, max_length=300)
    category: OtherCategory = OtherCategory.OTHER
    quantity: Annotated[int, Field(ge=1, le=MAX_OTHER_QUANTITY)] = 1
    price: Price | None = None  # None: no price known (the total is then "at least"), never 0
    # Watts drawn at the wall while the machine runs (a UPS's own loss, fans, a monitor); None: not given, so not
    # counted in the electricity cost (and said so).
    watts: Annotated[float, BeforeValidator(_finite_watts), Field(ge=0, le=MAX_OTHER_WATTS), NoNegativeZero] | None = (
        None
    )

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        name = " ".join(value.split())
        if not name:
            raise ValueError("an Other item needs a name")
        return name

    @property
    def unit_price(self) -> Price | None:
        return self.price

    @property
    def label(self) -> str:
        return self.category.label

    def describe(self) -> str:
        """One line for text reports: name, category, quantity, price with its source and date, power."""
        price = f"{self.price.describe()} each" if self.price else "no price"
        return f"{self.name} ({self.label}) x{self.quantity}: {price}; {self.power_text()}"

    def power_text(self) -> str:
        """Where its watts count: a case fan in the PSU's load (PSU_FED), the rest at the wall; none given: said."""
        if self.watts is None:
            return "power not given: not counted"
        return f"{self.watts:g} W each, " + (
            "fed by the PSU (in its load)" if self.category in PSU_FED else "at the wall"
        )

    def to_json(self) -> dict[str, object]:
        """The item as the file holds it, plus its label (the CLI's --json)."""
        return {**self.model_dump(mode="json"), "label": self.label}
