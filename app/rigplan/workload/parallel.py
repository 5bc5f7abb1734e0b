"""The links between GPUs and between nodes, and what tensor parallelism and offload cost over them (docs/workload.md,
"Tensor parallelism", "Offload", "Nodes").

- NVLink (SXM boards): per direction 150 GB/s on the V100, 300 on the A100, 450 on the H100 / H200 and 900 on the
  B200 (NVIDIA V100 / A100 / H100 / Blackwell datasheets: 300 / 600 / 900 / 1,800 GB/s total).
- PCIe x16: 16, 32 or 64 GB/s per direction at gen 3, 4, 5 (PCI-SIG: 8, 16, 32 GT/s with 128b/130b coding), of which
  about 80 % is reached in transfers (estimate; NVIDIA's p2pBandwidthLatencyTest shows 20-26 GB/s at gen 4).
  GeForce cards of the 30 and 40 series have no peer-to-peer over PCIe (NVIDIA disabled it in the driver for
  GeForce; the RTX 3090's NVLink bridge aside), so GPU-to-GPU traffic goes through host memory: half the bandwidth
  (estimate).
- All-reduce latency of one small message (decode's 2 per layer): 10 us over NVLink, 15 us over PCIe peer-to-peer,
  25 us through host memory: estimates in the range nccl-tests reports for 8-64 kB messages; the two tensor-parallel
  rows of the validation (vLLM Qwen2.5-72B on 4x A100, MLC Llama 2 70B on 2x RTX 4090) hold them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rigplan.workload.hardware import Hardware


@dataclass(frozen=True)
class Link:
    gbs: float  # GB/s per direction a transfer reaches
    latency_us: float  # one small all-reduce
    label: str


def _nvlink_gbs(gpu: str) -> float:
    n = gpu.lower()
    if "v100" in n:
        return 150.0
    if "a100" in n:
        return 300.0
    if "b200" in n or "b300" in n:
        return 900.0
    return 450.0  # H100, H200, GH200


def pcie_gbs(gen: float | None) -> float:
    return {3.0: 16.0, 4.0: 32.0, 5.0: 64.0}.get(gen or 4.0, 32.0) * 0.8


def geforce(name: str) -> bool:
    """GeForce by name: "GeForce" or an RTX 2050-5090 number (not the Quadro RTX 4000/5000/6000/8000)."""
    n = name.lower()
    return "geforce" in n or re.search(r"\brtx [2345]0[5-9]0\b", n) is not None


def gpu_link(hw: Hardware) -> Link:
    if hw.interconnect == "sxm":
        return Link(_nvlink_gbs(hw.gpu.name), 10.0, f"NVLink, {_nvlink_gbs(hw.gpu.name):g} GB/s per direction")
    bw = pcie_gbs(hw.pcie_gen)
    gen = f"PCIe {hw.pcie_gen or 4.0:g}"
    if geforce(hw.gpu.name):
        return Link(bw / 2, 25.0, f"{gen} without peer-to-peer (GeForce): through host memory, {bw / 2:g} GB/s")
    return Link(bw, 15.0, f"{gen} peer-to-peer, {bw:g} GB/s")


def allreduce_s(link: Link, n: int, nbytes: float) -> float:
    """One ring all-reduce of `nbytes` over n GPUs: latency + 2 (n-1)/n x bytes / bandwidth."""
    if n <= 1:
        return 0.0
    return link.latency_us * 1e-6 + 2 * (n - 1) / n * nbytes / (link.gbs * 1e9)


def host_link_gbs(hw: Hardware) -> float:
    """GPU <-> host RAM over the card's PCIe link (the build's or the instance's)."""
    return pcie_gbs(hw.pcie_gen)
