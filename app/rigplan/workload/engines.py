"""What each engine fixes in an estimate (docs/workload.md, "Engines"): the memory of the training loss, where the
activation checkpoints live, the multi-GPU way of serving, and the fixed decode cost per layer.

Sources, per figure:
- Loss memory, bytes per vocabulary entry per token:
  * hf 16: transformers' causal-LM loss upcasts the logits to fp32 (4), makes a shifted contiguous copy (4), and
    cross-entropy keeps its fp32 log-softmax (4) and builds its gradient (4) (transformers LlamaForCausalLM.forward,
    4.40-4.45, with torch.nn.CrossEntropyLoss). Fits Unsloth's "Hugging Face + FA2" column: Llama 3.1 8B QLoRA gains
    2.65 MB a token from 24 to 80 GB (5,789 -> 28,454 tokens), 2.1 MB of it from the 128k vocabulary.
  * torchtune 3.5: bf16 logits (2) kept and one of 8 chunks upcast at a time (CEWithChunkedOutputLoss: 12 / 8).
  * unsloth 0: a fused cross-entropy that never holds the logits (Unsloth README, "Apple's CCE algorithm").
  * inference engines: not trained.
- Checkpoints in host RAM: Unsloth's gradient checkpointing offloads each layer's input to system RAM (Unsloth blog
  "Long-context fine-tuning", 2024-04): its context column grows 0.23 MB a token on Llama 3.1 8B, one recomputed
  layer's worth.
- fp32 copy of the non-quantized parameters in QLoRA: PEFT's prepare_model_for_kbit_training casts the embeddings,
  the head and the norms to fp32 (hf); torchtune and Unsloth keep them bf16.
- Decode overhead per layer: llama.cpp 77 us, fitted on its RTX 4090 rows (docs/workload.md, "Decode"). vLLM with
  16-bit weights keeps that (Qwen2.5 speed benchmark, vLLM 0.6.3 on an A100 80GB: 7B BF16 84.3 tok/s, 14B 46.3, 32B
  22.1, all within 15 % with 77 us); its 4/8-bit GPTQ/AWQ kernels cost twice that, 154 us (7B GPTQ-Int4 154.1 tok/s,
  14B 98.0, 32B 55.8). transformers' generate without CUDA graphs costs 500 us a layer (same benchmark,
  "Transformer" rows: 7B BF16 40.4, 14B 24.7, 32B 17.5 tok/s). TGI is taken as vLLM (both CUDA-graph paged-attention
  servers), MLC as llama.cpp (compiled kernels; its 2x RTX 4090 row validates it). ExLlamaV2 32 us, fitted on its
  README's RTX 4090 rows (github.com/turboderp/exllamav2 README, "Performance": Llama 2 7B EXL2 4.0 bpw 211 t/s,
  Llama 2 70B 2.5 bpw 38 t/s); its 3.0 and 5.0 bpw and GPTQ rows validate it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rigplan.model.workload import Engine, Strategy, Task

TRAINING = frozenset({Engine.HF, Engine.TORCHTUNE, Engine.UNSLOTH})
SERVING = frozenset({Engine.HF, Engine.LLAMA_CPP, Engine.VLLM, Engine.TGI, Engine.EXLLAMAV2, Engine.MLC})


@dataclass(frozen=True)
class EngineSpec:
    label: str
    loss_bytes_per_vocab: float  # training: bytes per vocabulary entry per token held by the loss
    offloads_checkpoints: bool  # activation checkpoints kept in host RAM (Unsloth)
    fp32_non_quantized: bool  # QLoRA: embeddings / head / norms cast to fp32 (PEFT)
    multi_gpu_serving: Strategy  # SPLIT (pipeline, layers one after the other) or TENSOR
    layer_us_16bit: float  # decode: fixed cost per layer per step
    layer_us_quantized: float
    shards: bool  # training: can shard across GPUs (FSDP)
    source: str
    attention: str = "FlashAttention 2"  # the kernel: none of these keeps an s x s score matrix


ENGINES: dict[Engine, EngineSpec] = {
    Engine.HF: EngineSpec("Hugging Face transformers", 16.0, False, True, Strategy.SPLIT, 500.0, 500.0, True,
                          "transformers fp32 loss; generate() 500 us/layer (Qwen2.5 speed benchmark)"),
    Engine.TORCHTUNE: EngineSpec("torchtune", 3.5, False, False, Strategy.SPLIT, 500.0, 500.0, True,
                                 "torchtune CEWithChunkedOutputLoss (8 chunks)", "SDPA (flash / memory-efficient)"),
    Engine.UNSLOTH: EngineSpec("Unsloth", 0.0, True, False, Strategy.SPLIT, 500.0, 500.0, False,
                               "Unsloth fused cross-entropy, checkpoints offloaded to RAM",
                               "FlashAttention 2 / xformers"),
    Engine.LLAMA_CPP: EngineSpec("llama.cpp", 0.0, False, False, Strategy.SPLIT, 77.0, 77.0, False,
                                 "llama.cpp: 77 us/layer fitted on its RTX 4090 rows; layers split across GPUs",
                                 "llama.cpp flash attention (-fa)"),
    Engine.VLLM: EngineSpec("vLLM", 0.0, False, False, Strategy.TENSOR, 77.0, 154.0, False,
                            "vLLM: 77 us/layer at 16 bits, 154 with GPTQ/AWQ kernels (Qwen2.5 speed benchmark); "
                            "tensor parallel", "PagedAttention / FlashAttention"),
    Engine.TGI: EngineSpec("TGI", 0.0, False, False, Strategy.TENSOR, 77.0, 154.0, False,
                           "TGI taken as vLLM (paged attention, CUDA graphs); tensor parallel",
                           "PagedAttention / FlashAttention"),
    Engine.EXLLAMAV2: EngineSpec("ExLlamaV2", 0.0, False, False, Strategy.TENSOR, 32.0, 32.0, False,
                                 "ExLlamaV2: 32 us/layer fitted on its README's RTX 4090 rows (Llama 2 7B EXL2 4.0 "
                                 "bpw 211 t/s, 70B 2.5 bpw 38 t/s); tensor parallel (0.2.x)", "FlashAttention 2"),
    Engine.MLC: EngineSpec("MLC LLM", 0.0, False, False, Strategy.TENSOR, 77.0, 77.0, False,
                           "MLC taken as llama.cpp per layer (its 2x RTX 4090 row validates it); tensor parallel",
                           "compiled paged attention (TVM)"),
}  # fmt: skip


def default_engine(task: Task) -> Engine:
    """Training: Hugging Face (PEFT / TRL), what most guides use; inference: llama.cpp, the desktop default (the
    first round's decode constants are its own)."""
    return Engine.LLAMA_CPP if task is Task.INFERENCE else Engine.HF


def engine_spec(e: Engine) -> EngineSpec:
    return ENGINES[e]
