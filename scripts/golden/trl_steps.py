"""Writes test/fixtures/golden-steps-trl.json: the weight a real trl 1.13.0 GRPOTrainer applies to
each completion's tokens, per optimizer step, measured under torchrun (gloo, CPU).

Run from the repository root (never by CI; the JSON is committed):
    python scripts/golden/trl_steps.py            # launches every case with torchrun, then merges
What is real: GRPOTrainer (trl 1.13.0) with its RepeatSampler, generation, shuffle, split into
micro-batches, loss normalisers, transformers 5.18.0's Trainer (accumulation windows, the short
last one) and accelerate 1.15.0's DDP (the mean over ranks). The model is a tiny Qwen2 built from
a config (random weights, no download) and the tokenizer a WordLevel one built here; rewards are
seeded random numbers, so every advantage is non-zero.

How the weight is measured: a probe parameter (one entry per completion of the run: generation,
rank, position in the rank's generation batch) is added to the model, and the per-token log-probabilities the loss sees become
logps + (probe[i] − probe[i].detach()): the values are unchanged, and d(loss)/d(probe[i]) =
Σ_t d(loss)/d(logp_t). The probe is a parameter of the DDP-wrapped model, so the gradient read just
before optimizer.step() (on_pre_optimizer_step) is what the optimizer applies: accumulated over
the window and averaged over ranks. With learning_rate 0 the policy never changes, the ratio is 1
at every token (within float error), and beta 0, so d(per-token loss)/d(logp) = −advantage and
weight = probe.grad[i] / (−advantage_i × tokens_i). max_grad_norm 0 turns clipping off (clipping
would rescale what is applied; the sandbox models the update before clipping).
The permutation shuffle_sequence_dict draws is recorded by drawing it once more from a saved copy of
the generator state (the real call then draws the same one).
"""
import json
import os
import random
import subprocess
import sys
import tempfile

CASES = [
    # name, ranks, batch, k, spg, ga, iterations, loss, dataset
    dict(name='dapo-spg4-ga2', ranks=2, batch=2, k=2, spg=4, ga=2, mu=1, loss='dapo', dataset=16),
    dict(name='dapo-spg2-ga4', ranks=2, batch=2, k=2, spg=2, ga=4, mu=1, loss='dapo', dataset=16),
    dict(name='bnpo-spg2-ga2', ranks=2, batch=2, k=2, spg=2, ga=2, mu=1, loss='bnpo', dataset=8),
    dict(name='grpo-spg2-ga3-mu2', ranks=2, batch=2, k=2, spg=2, ga=3, mu=2, loss='grpo', dataset=8),
    dict(name='dr_grpo-spg2-ga3', ranks=2, batch=2, k=2, spg=2, ga=3, mu=1, loss='dr_grpo', dataset=16),
    dict(name='dapo-w1-spg1-ga2', ranks=1, batch=4, k=2, spg=1, ga=2, mu=1, loss='dapo', dataset=6),
]
MAX_COMPLETION_LENGTH = 8
SEED = 7


def worker(case, out_dir):
    import torch
    import transformers
    import trl
    from datasets import Dataset
    from tokenizers import Tokenizer
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import WhitespaceSplit
    from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM, TrainerCallback
    from trl import GRPOConfig, GRPOTrainer
    import trl.trainer.grpo_trainer as grpo_module

    rank = int(os.environ.get('RANK', '0'))
    words = ['<pad>', '<eos>', '<unk>'] + [f'w{i}' for i in range(9)] + [f'p{i}' for i in range(case['dataset'])]
    tok = Tokenizer(WordLevel({w: i for i, w in enumerate(words)}, unk_token='<unk>'))
    tok.pre_tokenizer = WhitespaceSplit()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token='<pad>', eos_token='<eos>', unk_token='<unk>')
    torch.manual_seed(SEED)
    config = Qwen2Config(
        vocab_size=len(words), hidden_size=16, intermediate_size=32, num_hidden_layers=1, num_attention_heads=2,
        num_key_value_heads=1, max_position_embeddings=64, eos_token_id=1, pad_token_id=0, bos_token_id=None,
        tie_word_embeddings=False,
    )
    model = Qwen2ForCausalLM(config)
    # A biased output layer makes <eos> likely enough that completion lengths vary between 1 and 8.
    head = torch.nn.Linear(config.hidden_size, config.vocab_size, bias=True)
    with torch.no_grad():
        head.weight.copy_(model.lm_head.weight)
        head.bias.zero_()
        head.bias[1] = 2.5
    model.lm_head = head
    per_rank = case['batch'] * case['spg']
    generations = case['dataset'] // (case['ranks'] * per_rank // case['k'])
    # One probe entry per completion of the run: (generation, rank, position in the rank's generation batch).
    model.register_parameter('probe', torch.nn.Parameter(torch.zeros(generations * case['ranks'] * per_rank)))

    dataset = Dataset.from_dict({'prompt': [f'p{i} w0' for i in range(case['dataset'])], 'pid': list(range(case['dataset']))})
    reward_rng = random.Random(1000 + rank)
    log = {'rank': rank, 'generations': [], 'microSteps': [], 'windows': []}

    def reward(prompts, completions, pid, **kwargs):
        log['generations'].append({'pids': list(pid)})
        return [reward_rng.random() for _ in completions]

    original_shuffle = grpo_module.shuffle_sequence_dict

    def recording_shuffle(seq_dict):
        size = len(next(v for v in seq_dict.values() if v is not None))
        state = torch.get_rng_state()
        perm = torch.randperm(size).tolist()
        torch.set_rng_state(state)
        out = original_shuffle(seq_dict)
        gen = log['generations'][-1]
        gen['perm'] = perm
        gen['tokens'] = seq_dict['completion_mask'].sum(-1).tolist()
        gen['advantages'] = seq_dict['advantages'].tolist()
        gen['numItemsInBatch'] = float(seq_dict['num_items_in_batch'])
        return out

    grpo_module.shuffle_sequence_dict = recording_shuffle

    args = GRPOConfig(
        output_dir=tempfile.mkdtemp(), per_device_train_batch_size=case['batch'], num_generations=case['k'],
        steps_per_generation=case['spg'], gradient_accumulation_steps=case['ga'], num_iterations=case['mu'],
        loss_type=case['loss'], beta=0.0, learning_rate=0.0, max_grad_norm=0.0, max_completion_length=MAX_COMPLETION_LENGTH,
        num_train_epochs=1, seed=SEED, report_to=[], save_strategy='no', logging_steps=1000, use_cpu=True,
        dataloader_num_workers=0, bf16=False, fp16=False,
    )

    class ReadProbe(TrainerCallback):
        def on_pre_optimizer_step(self, args, state, control, **kwargs):
            grad = model.probe.grad
            log['windows'].append({'probeGrad': [0.0] * model.probe.numel() if grad is None else grad.tolist()})

    trainer = GRPOTrainer(model=model, reward_funcs=reward, args=args, train_dataset=dataset, processing_class=tokenizer,
                          callbacks=[ReadProbe()])
    original_logps = trainer._get_per_token_logps_and_entropies

    def probed_logps(*a, **kw):
        logps, entropies, aux = original_logps(*a, **kw)
        if torch.is_grad_enabled() and trainer.model.training:
            chunk = trainer._step % case['spg']
            gen = log['generations'][-1]
            local = gen['perm'][chunk * case['batch']:(chunk + 1) * case['batch']]
            base = (len(log['generations']) - 1) * case['ranks'] * per_rank + rank * per_rank
            index = torch.tensor([base + i for i in local])
            probe = model.probe[index]
            logps = logps + (probe - probe.detach()).unsqueeze(1)
            log['microSteps'].append({'step': trainer._step, 'generation': len(log['generations']) - 1, 'chunk': chunk,
                                      'local': local, 'window': len(log['windows'])})
        return logps, entropies, aux

    trainer._get_per_token_logps_and_entropies = probed_logps
    trainer.train()
    log['versions'] = {'trl': trl.__version__, 'transformers': transformers.__version__, 'torch': torch.__version__}
    with open(os.path.join(out_dir, f'rank{rank}.json'), 'w') as f:
        json.dump(log, f)


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
    out = {'source': 'scripts/golden/trl_steps.py: a real trl GRPOTrainer under torchrun (gloo, CPU)', 'maxCompletionLength':
           MAX_COMPLETION_LENGTH, 'seed': SEED, 'cases': []}
    for case in CASES:
        with tempfile.TemporaryDirectory() as tmp:
            cmd = [sys.executable, '-m', 'torch.distributed.run', '--nproc_per_node', str(case['ranks']), '--master_port', '29611',
                   os.path.abspath(__file__), '--worker', json.dumps(case), tmp]
            env = {**os.environ, 'OMP_NUM_THREADS': '1', 'TOKENIZERS_PARALLELISM': 'false'}
            subprocess.run(cmd, check=True, env=env, cwd=root)
            ranks = [json.load(open(os.path.join(tmp, f'rank{r}.json'))) for r in range(case['ranks'])]
        out['versions'] = ranks[0].pop('versions')
        for r in ranks[1:]:
            r.pop('versions')
        out['cases'].append({**case, 'ranks_log': ranks})
        print(case['name'], 'windows', len(ranks[0]['windows']), 'micro-steps', len(ranks[0]['microSteps']), flush=True)
    path = os.path.join(root, 'test', 'fixtures', 'golden-steps-trl.json')
    with open(path, 'w') as f:
        json.dump(out, f, separators=(',', ':'))
    print('wrote', path)


if __name__ == '__main__':
    if len(sys.argv) > 1 and sys.argv[1] == '--worker':
        worker(json.loads(sys.argv[2]), sys.argv[3])
    else:
        main()
