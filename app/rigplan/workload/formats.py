"""Weight formats as people download them: bits per weight of the blocks' linear layers, what the embeddings and the
output head are stored in, and which engines and GPUs run them (docs/workload.md, "Weight formats").

Figures:
- GGUF k-quants: the whole file's bits per weight as llama.cpp's own table measures them on Llama 3.1 8B
  (github.com/ggml-org/llama.cpp tools/quantize/README.md, "Quantization": Q2_K 3.1593, Q3_K_S 3.6429, Q3_K_L 4.2979,
  Q4_K_S 4.6672, Q4_K_M 4.8944, Q5_K_S 5.5704, Q5_K_M 5.7036, Q6_K 6.5633, Q8_0 8.5008). GGUF quantizes the
  embeddings and output head too, so the figure applies to every parameter. Cross-check: the same README gives Llama
  3.1 70B Q4_K_M as 43.1 GB (70.6B x 4.8944 / 8 = 43.2 GB).
- GPTQ / AWQ int4 at group size 128: 4 bits, one fp16 scale and one 4-bit zero point per 128 weights = 4.156 bits
  (AutoGPTQ / AutoAWQ packing); int8 likewise 8.156. Embeddings and the output head stay fp16.
- NF4 (bitsandbytes load_in_4bit with double quantization): 4.127 bits (QLoRA paper, section 3); embeddings bf16.
- FP8 E4M3 with one scale per tensor: 8 bits; the output head and embeddings stay bf16 (vLLM / llm-compressor's FP8
  checkpoints). Natively run on compute capability 8.9 and newer (Ada, Hopper, Blackwell).
- EXL2: the bits per weight the file was made at (2 to 8) on the linear layers; ExLlamaV2 stores the output head at
  6 bits by default and keeps the input embedding table in system RAM (exllamav2 README and convert.py defaults).
- int4 / int8 (nominal): llama.cpp's Q4_0 / Q8_0 sizes (4.5 / 8.5 bits on every parameter), the first round's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rigplan.model.workload import Engine, Weights


@dataclass(frozen=True)
class Format:
    linear_bits: float  # bits per weight of the blocks' linear layers
    head_bits: float  # the output head
    embed_bits: float  # the input embedding table (0: not on the GPU)
    quantized: bool  # dequantized on the fly (a decode kernel's extra cost on vLLM-class engines)
    engines: frozenset[Engine]  # engines that load it
    label: str


GGUF = frozenset({Engine.LLAMA_CPP})
SERVE = frozenset({Engine.VLLM, Engine.TGI, Engine.HF})
ANY = frozenset(Engine)
GGUF_BPW = {
    Weights.Q2_K: 3.1593, Weights.Q3_K_S: 3.6429, Weights.Q3_K_L: 4.2979, Weights.Q4_K_S: 4.6672,
    Weights.Q4_K_M: 4.8944, Weights.Q5_K_S: 5.5704, Weights.Q5_K_M: 5.7036, Weights.Q6_K: 6.5633,
    Weights.Q8_0: 8.5008,
}  # fmt: skip


def weight_format(w: Weights, bpw: float | None = None) -> Format:
    if w in GGUF_BPW:
        b = GGUF_BPW[w]
        return Format(b, b, b, True, GGUF, f"GGUF {w.value.upper()} ({b:.2f} bits per weight, llama.cpp's table)")
    if w is Weights.GPTQ_INT4 or w is Weights.AWQ:
        return Format(
            4.156,
            16,
            16,
            True,
            SERVE | {Engine.MLC, Engine.EXLLAMAV2},
            f"{'AWQ' if w is Weights.AWQ else 'GPTQ'} int4, group 128 (4.16 bits; head and embeddings 16)",
        )
    if w is Weights.GPTQ_INT8:
        return Format(8.156, 16, 16, True, SERVE, "GPTQ int8, group 128 (8.16 bits; head and embeddings 16)")
    if w is Weights.NF4:
        return Format(
            4.127,
            16,
            16,
            True,
            frozenset({Engine.HF, Engine.VLLM, Engine.TGI, Engine.UNSLOTH}),
            "bitsandbytes NF4 (4.13 bits; head and embeddings 16)",
        )
    if w is Weights.FP8:
        return Format(
            8.0,
            16,
            16,
            False,
            frozenset({Engine.VLLM, Engine.TGI, Engine.HF, Engine.TORCHTUNE}),
            "FP8 E4M3, per-tensor scale (8 bits; head and embeddings 16)",
        )
    if w is Weights.EXL2:
        b = bpw if bpw is not None else 4.0
        return Format(
            b,
            6.0,
            0.0,
            True,
            frozenset({Engine.EXLLAMAV2}),
            f"EXL2 at {b:g} bits per weight (head 6 bits; embeddings in system RAM)",
        )
    if w is Weights.INT8:
        return Format(8.5, 8.5, 8.5, True, ANY, "int8 (nominal: llama.cpp Q8_0 size, 8.5 bits)")
    if w is Weights.INT4:
        return Format(4.5, 4.5, 4.5, True, ANY, "int4 (nominal: llama.cpp Q4_0 size, 4.5 bits)")
    return Format(16.0, 16.0, 16.0, False, ANY, f"{w.value} (16 bits)")


# The formats the reverse question "best format that fits" tries, best quality first.
BEST_FIRST = (Weights.BF16, Weights.Q8_0, Weights.Q6_K, Weights.Q5_K_M, Weights.Q4_K_M, Weights.Q3_K_L,
              Weights.Q3_K_S, Weights.Q2_K)  # fmt: skip
SERVE_BEST_FIRST = (Weights.BF16, Weights.FP8, Weights.GPTQ_INT8, Weights.AWQ, Weights.GPTQ_INT4)


def fp8_native(gpu_name: str) -> bool:
    """FP8 tensor cores: Ada (GeForce RTX 40, L4, L40/L40S, RTX 2000-6000 Ada), Hopper (H100, H200, GH200), Blackwell
    (B200, B300, GeForce RTX 50, RTX PRO): NVIDIA's Ada and Hopper architecture whitepapers (FP8 Transformer Engine).
    Turing's Quadro RTX 4000/5000 are not Ada, whatever their names share."""
    n = gpu_name.lower()
    if re.search(r"\b(h100|h200|gh200|b200|b300|l4|l40s?)\b", n) or "ada" in n or "rtx pro" in n:
        return True
    return re.search(r"\brtx [45]0[5-9]0\b", n) is not None  # GeForce RTX 4050-4090, 5050-5090
