/* genlog: write a deterministic, realistic GPU training log for benchmarks.
 *
 *   genlog SIZE [SEED] > FILE        one log of exactly SIZE bytes
 *   genlog -d DIR COUNT [SEED]       COUNT logs of 2-8 KiB in DIR (DIR must exist)
 *
 * SIZE takes a K, M or G suffix (powers of 1024). The same SIZE and SEED
 * always give the same bytes. The body mixes what real multi-rank training
 * logs carry (logger lines, step/loss lines, tqdm bars whose updates are
 * separated by '\r' on one physical line, ANSI colours, NCCL INFO lines,
 * 1-4 KB JSON metric lines, Python warnings, [rankN]: and [defaultN]:
 * prefixes), with about one near-miss line per 10 MB (memory wording in a
 * line that reports no failure). The log ends with real failure lines: a
 * PyTorch CUDA OOM traceback and NCCL watchdog timeouts on the other ranks.
 * Logs too small for the whole ending keep only its part that fits; the OOM
 * line itself is always written, so SIZE below about 600 bytes is exceeded.
 *
 * Plain C11, no libm, no dependencies: cc -O2 -o genlog genlog.c
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUF_SIZE (4u << 20)
#define MAX_LINE (64u << 10) /* no generated line is longer */
#define NEAR_MISS_EVERY (10u << 20)

struct clock {
    unsigned year, mon, day, hour, min, sec, usec;
};

struct gen {
    FILE *out;
    char *buf;
    size_t len;       /* bytes in buf, not yet written */
    uint64_t written; /* bytes already written to out */
    uint64_t rng;
    struct clock clk;
    unsigned step, total_steps, seq;
    unsigned tqdm_n, tqdm_total;
    uint64_t next_near_miss;
    unsigned pid_base;
    int write_error;
};

/* ---- random numbers (xorshift64*, seeded through splitmix64) ---- */

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static uint64_t rnd(struct gen *g)
{
    g->rng ^= g->rng >> 12;
    g->rng ^= g->rng << 25;
    g->rng ^= g->rng >> 27;
    return g->rng * 0x2545F4914F6CDD1Dull;
}

/* uniform in [0, n) */
static unsigned rnd_below(struct gen *g, unsigned n)
{
    return (unsigned)(((rnd(g) >> 32) * (uint64_t)n) >> 32);
}

static double rnd_unit(struct gen *g)
{
    return (double)(rnd(g) >> 11) * (1.0 / 9007199254740992.0);
}

/* ---- output buffer ---- */

static void flush_buf(struct gen *g)
{
    if (g->len > 0 && fwrite(g->buf, 1, g->len, g->out) != g->len)
        g->write_error = 1;
    g->written += g->len;
    g->len = 0;
}

static void put(struct gen *g, const char *s, size_t n)
{
    memcpy(g->buf + g->len, s, n);
    g->len += n;
}

#define PUT_LIT(g, s) put((g), (s), sizeof(s) - 1)

static void put_str(struct gen *g, const char *s)
{
    put(g, s, strlen(s));
}

static void put_ch(struct gen *g, char c)
{
    g->buf[g->len++] = c;
}

static void put_u(struct gen *g, uint64_t v)
{
    char tmp[24];
    int i = 0;

    do {
        tmp[i++] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0);
    while (i > 0)
        g->buf[g->len++] = tmp[--i];
}

/* zero-padded to at least width digits */
static void put_uw(struct gen *g, uint64_t v, int width)
{
    char tmp[24];
    int i = 0;

    do {
        tmp[i++] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0);
    while (i < width)
        tmp[i++] = '0';
    while (i > 0)
        g->buf[g->len++] = tmp[--i];
}

static void put_hex(struct gen *g, uint64_t v)
{
    static const char digits[] = "0123456789abcdef";
    char tmp[16];
    int i = 0;

    do {
        tmp[i++] = digits[v & 15];
        v >>= 4;
    } while (v > 0);
    while (i > 0)
        g->buf[g->len++] = tmp[--i];
}

/* fixed-point decimal, x >= 0 */
static void put_fix(struct gen *g, double x, int decimals)
{
    static const uint64_t pow10[] = {1, 10, 100, 1000, 10000, 100000, 1000000};
    uint64_t p = pow10[decimals];
    uint64_t v = (uint64_t)(x * (double)p + 0.5);

    put_u(g, v / p);
    if (decimals > 0) {
        put_ch(g, '.');
        put_uw(g, v % p, decimals);
    }
}

/* 0 < x < 1, as tqdm and loggers print learning rates: 3.0e-04 */
static void put_sci(struct gen *g, double x)
{
    int e = 0;
    unsigned m;

    if (!(x > 0.0)) {
        PUT_LIT(g, "0.0e+00");
        return;
    }
    while (x < 1.0 && e < 99) {
        x *= 10.0;
        e++;
    }
    m = (unsigned)(x * 10.0 + 0.5);
    if (m >= 100) {
        m /= 10;
        e--;
    }
    put_u(g, m / 10);
    put_ch(g, '.');
    put_u(g, m % 10);
    PUT_LIT(g, "e-");
    put_uw(g, (uint64_t)e, 2);
}

/* ---- clock ---- */

static unsigned days_in_month(unsigned year, unsigned mon)
{
    static const unsigned days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;

    return days[mon - 1] + (mon == 2 && leap);
}

static void clock_advance(struct clock *c, unsigned usec)
{
    c->usec += usec;
    while (c->usec >= 1000000) {
        c->usec -= 1000000;
        if (++c->sec < 60)
            continue;
        c->sec = 0;
        if (++c->min < 60)
            continue;
        c->min = 0;
        if (++c->hour < 24)
            continue;
        c->hour = 0;
        if (++c->day <= days_in_month(c->year, c->mon))
            continue;
        c->day = 1;
        if (++c->mon <= 12)
            continue;
        c->mon = 1;
        c->year++;
    }
}

static void put_hms(struct gen *g)
{
    put_uw(g, g->clk.hour, 2);
    put_ch(g, ':');
    put_uw(g, g->clk.min, 2);
    put_ch(g, ':');
    put_uw(g, g->clk.sec, 2);
}

/* 2026-11-29 10:11:12,345 */
static void put_timestamp(struct gen *g)
{
    put_uw(g, g->clk.year, 4);
    put_ch(g, '-');
    put_uw(g, g->clk.mon, 2);
    put_ch(g, '-');
    put_uw(g, g->clk.day, 2);
    put_ch(g, ' ');
    put_hms(g);
    put_ch(g, ',');
    put_uw(g, g->clk.usec / 1000, 3);
}

/* glog prefix as c10 prints it: [W1129 10:11:12.345678 12345 FILE:LINE] */
static void put_glog(struct gen *g, char level, const char *file, unsigned line)
{
    put_ch(g, '[');
    put_ch(g, level);
    put_uw(g, g->clk.mon, 2);
    put_uw(g, g->clk.day, 2);
    put_ch(g, ' ');
    put_hms(g);
    put_ch(g, '.');
    put_uw(g, g->clk.usec, 6);
    put_ch(g, ' ');
    put_u(g, g->pid_base);
    put_ch(g, ' ');
    put_str(g, file);
    put_ch(g, ':');
    put_u(g, line);
    PUT_LIT(g, "] ");
}

/* ---- pieces of lines ---- */

static const char *pick(struct gen *g, const char *const *list, unsigned n)
{
    return list[rnd_below(g, n)];
}

#define PICK(g, list) pick((g), (list), sizeof(list) / sizeof((list)[0]))

/* torch's [rankN]: or torchrun's [defaultN]: prefix, on some lines */
static void maybe_rank_prefix(struct gen *g)
{
    unsigned r = rnd_below(g, 100);

    if (r < 20) {
        PUT_LIT(g, "[rank");
        put_u(g, rnd_below(g, 8));
        PUT_LIT(g, "]:");
    } else if (r < 35) {
        PUT_LIT(g, "[default");
        put_u(g, rnd_below(g, 8));
        PUT_LIT(g, "]:");
    }
}

static void put_level(struct gen *g, const char *level)
{
    int colour = rnd_below(g, 100) < 30;

    if (!colour) {
        put_str(g, level);
        return;
    }
    if (level[0] == 'W')
        PUT_LIT(g, "\x1b[33m");
    else if (level[0] == 'D')
        PUT_LIT(g, "\x1b[36m");
    else
        PUT_LIT(g, "\x1b[32m");
    put_str(g, level);
    PUT_LIT(g, "\x1b[0m");
}

/* 2026-11-29 10:11:12,345 - [trainer - ]INFO - */
static void put_logger_prefix(struct gen *g, const char *level)
{
    static const char *const names[] = {
        "trainer",
        "__main__",
        "accelerate.accelerator",
        "torch.distributed.elastic.multiprocessing.api",
        "transformers.trainer",
        "data.loader",
    };

    maybe_rank_prefix(g);
    put_timestamp(g);
    PUT_LIT(g, " - ");
    if (rnd_below(g, 2) == 0) {
        put_str(g, PICK(g, names));
        PUT_LIT(g, " - ");
    }
    put_level(g, level);
    PUT_LIT(g, " - ");
}

static double loss_now(struct gen *g)
{
    return 1.9 + 8.5 / (1.0 + g->step / 400.0) + 0.08 * rnd_unit(g);
}

static double lr_now(struct gen *g)
{
    double peak = 3.0e-4, warmup = 2000.0, s = g->step;

    if (s < warmup)
        return peak * (s + 1.0) / warmup;
    return peak * (1.0 - 0.9 * (s - warmup) / (g->total_steps - warmup));
}

/* ---- line kinds ---- */

static void line_logger(struct gen *g)
{
    unsigned r = rnd_below(g, 12);
    const char *level = rnd_below(g, 10) == 0 ? "WARNING" : "INFO";

    if (rnd_below(g, 15) == 0)
        level = "DEBUG";
    put_logger_prefix(g, level);
    switch (r) {
    case 0:
        PUT_LIT(g, "Saving checkpoint to /checkpoints/llama-7b-run17/step_");
        put_uw(g, g->step, 7);
        break;
    case 1:
        PUT_LIT(g, "Loaded ");
        put_u(g, 40000 + rnd_below(g, 20000));
        PUT_LIT(g, " samples from shard ");
        put_u(g, rnd_below(g, 512));
        PUT_LIT(g, "/512 (/data/tokens/train-");
        put_uw(g, rnd_below(g, 512), 5);
        PUT_LIT(g, ".bin)");
        break;
    case 2:
        PUT_LIT(g, "Evaluating on validation set: ");
        put_u(g, 100 + rnd_below(g, 400));
        PUT_LIT(g, " batches, eval_loss=");
        put_fix(g, loss_now(g) + 0.1, 4);
        PUT_LIT(g, ", eval_ppl=");
        put_fix(g, 8.0 + 30.0 * rnd_unit(g), 3);
        break;
    case 3:
        PUT_LIT(g, "Throughput: ");
        put_fix(g, 180.0 + 20.0 * rnd_unit(g), 2);
        PUT_LIT(g, " samples/s, ");
        put_fix(g, 150.0 + 40.0 * rnd_unit(g), 1);
        PUT_LIT(g, " TFLOPs/GPU, MFU ");
        put_fix(g, 38.0 + 8.0 * rnd_unit(g), 1);
        put_ch(g, '%');
        break;
    case 4:
        PUT_LIT(g, "GPU memory: allocated ");
        put_fix(g, 60.0 + 10.0 * rnd_unit(g), 2);
        PUT_LIT(g, " GiB, reserved ");
        put_fix(g, 72.0 + 4.0 * rnd_unit(g), 2);
        PUT_LIT(g, " GiB, max allocated ");
        put_fix(g, 74.0 + 2.0 * rnd_unit(g), 2);
        PUT_LIT(g, " GiB");
        break;
    case 5:
        PUT_LIT(g, "Epoch ");
        put_u(g, 1 + g->step / 10000);
        PUT_LIT(g, "/10 finished in ");
        put_fix(g, 3000.0 + 600.0 * rnd_unit(g), 1);
        PUT_LIT(g, " s");
        break;
    case 6: PUT_LIT(g, "Gradient accumulation steps: 8, micro batch size: 4, global batch size: 256"); break;
    case 7:
        PUT_LIT(g, "Dataloader prefetch queue depth ");
        put_u(g, rnd_below(g, 16));
        PUT_LIT(g, ", workers alive 8/8");
        break;
    case 8:
        PUT_LIT(g, "Resharding optimizer state (ZeRO stage 2) across 8 ranks took ");
        put_fix(g, 1.0 + 3.0 * rnd_unit(g), 3);
        PUT_LIT(g, " s");
        break;
    case 9: PUT_LIT(g, "wandb: logging run llama-7b-run17 to https://wandb.ai/team/pretrain/runs/3k9x2q1z"); break;
    case 10:
        PUT_LIT(g, "Skipped ");
        put_u(g, rnd_below(g, 4));
        PUT_LIT(g, " batches with non-finite gradients (loss scale ");
        put_u(g, 1u << (10 + rnd_below(g, 8)));
        PUT_LIT(g, ")");
        break;
    default:
        PUT_LIT(g, "Consumed ");
        put_u(g, (uint64_t)g->step * 1048576u);
        PUT_LIT(g, " tokens (");
        put_fix(g, g->step * 100.0 / g->total_steps, 2);
        PUT_LIT(g, "% of schedule)");
        break;
    }
    put_ch(g, '\n');
}

static void line_step(struct gen *g)
{
    if (++g->step > g->total_steps)
        g->step = 1; /* a restarted job appending to the same log */
    maybe_rank_prefix(g);
    if (rnd_below(g, 4) == 0) {
        /* the Hugging Face Trainer prints a dict */
        PUT_LIT(g, "{'loss': ");
        put_fix(g, loss_now(g), 4);
        PUT_LIT(g, ", 'grad_norm': ");
        put_fix(g, 0.2 + 1.5 * rnd_unit(g), 6);
        PUT_LIT(g, ", 'learning_rate': ");
        put_sci(g, lr_now(g));
        PUT_LIT(g, ", 'epoch': ");
        put_fix(g, g->step / 10000.0, 2);
        PUT_LIT(g, "}\n");
        return;
    }
    PUT_LIT(g, "step ");
    put_u(g, g->step);
    put_ch(g, '/');
    put_u(g, g->total_steps);
    PUT_LIT(g, " | loss ");
    put_fix(g, loss_now(g), 4);
    PUT_LIT(g, " | lr ");
    put_sci(g, lr_now(g));
    PUT_LIT(g, " | ");
    put_fix(g, 1.1 + 0.3 * rnd_unit(g), 2);
    PUT_LIT(g, " s/it\n");
}

static void put_mmss(struct gen *g, unsigned s)
{
    if (s >= 3600) {
        put_u(g, s / 3600);
        put_ch(g, ':');
        s %= 3600;
    }
    put_uw(g, s / 60, 2);
    put_ch(g, ':');
    put_uw(g, s % 60, 2);
}

/* one physical line of many tqdm updates, each starting with '\r' */
static void line_tqdm(struct gen *g)
{
    static const char *const partial[] = {
        " ",
        "\xe2\x96\x8f",
        "\xe2\x96\x8e",
        "\xe2\x96\x8d",
        "\xe2\x96\x8c",
        "\xe2\x96\x8b",
        "\xe2\x96\x8a",
        "\xe2\x96\x89",
    };
    static const char *const labels[] = {
        "", "Training: ", "Evaluating: ", "Epoch 3: ", "Map (num_proc=8): ", "Tokenizing: ",
    };
    const char *label = PICK(g, labels);
    unsigned width = rnd_below(g, 2) ? 10 : 40;
    unsigned updates = 10 + rnd_below(g, 50);
    double rate = 5.0 + 60.0 * rnd_unit(g);
    unsigned i;

    if (g->tqdm_n >= g->tqdm_total) {
        g->tqdm_total = 500 + rnd_below(g, 20000);
        g->tqdm_n = 0;
    }
    for (i = 0; i < updates && g->tqdm_n <= g->tqdm_total; i++) {
        unsigned n = g->tqdm_n, total = g->tqdm_total;
        unsigned eighths = (unsigned)((uint64_t)n * width * 8 / total);
        unsigned full = eighths / 8, j;
        unsigned elapsed = (unsigned)(n / rate);
        unsigned left = (unsigned)((total - n) / rate);

        put_ch(g, '\r');
        put_str(g, label);
        if (n * 100u / total < 100)
            put_ch(g, ' ');
        if (n * 100u / total < 10)
            put_ch(g, ' ');
        put_u(g, n * 100u / total);
        PUT_LIT(g, "%|");
        for (j = 0; j < full; j++)
            PUT_LIT(g, "\xe2\x96\x88");
        if (full < width) {
            if (eighths % 8 == 0)
                put_ch(g, ' ');
            else
                put_str(g, partial[eighths % 8]);
            for (j = full + 1; j < width; j++)
                put_ch(g, ' ');
        }
        PUT_LIT(g, "| ");
        put_u(g, n);
        put_ch(g, '/');
        put_u(g, total);
        PUT_LIT(g, " [");
        put_mmss(g, elapsed);
        put_ch(g, '<');
        put_mmss(g, left);
        PUT_LIT(g, ", ");
        put_fix(g, rate * (0.9 + 0.2 * rnd_unit(g)), 2);
        PUT_LIT(g, "it/s]");
        if (n == total)
            break;
        g->tqdm_n += 1 + rnd_below(g, 3);
        if (g->tqdm_n > total)
            g->tqdm_n = total;
    }
    if (g->tqdm_n >= g->tqdm_total)
        g->tqdm_n = g->tqdm_total;
    put_ch(g, '\n');
}

static void put_nccl_prefix(struct gen *g, unsigned rank)
{
    maybe_rank_prefix(g);
    PUT_LIT(g, "node");
    put_u(g, 1 + rank / 8);
    put_ch(g, ':');
    put_u(g, g->pid_base + rank);
    put_ch(g, ':');
    put_u(g, g->pid_base + 54 + rank * 7);
    PUT_LIT(g, " [");
    put_u(g, rank % 8);
    PUT_LIT(g, "] NCCL INFO ");
}

static void line_nccl(struct gen *g)
{
    unsigned rank = rnd_below(g, 16);
    unsigned r = rnd_below(g, 10);

    put_nccl_prefix(g, rank);
    switch (r) {
    case 0:
    case 1:
    case 2: {
        unsigned ch = rnd_below(g, 24), peer = (rank + 1) % 16;

        PUT_LIT(g, "Channel ");
        put_uw(g, ch, 2);
        PUT_LIT(g, "/24 : ");
        put_u(g, rank);
        put_ch(g, '[');
        put_u(g, rank % 8);
        PUT_LIT(g, "] -> ");
        put_u(g, peer);
        put_ch(g, '[');
        put_u(g, peer % 8);
        PUT_LIT(g, "] via ");
        if (rank / 8 != peer / 8)
            PUT_LIT(g, "NET/IB/0/GDRDMA");
        else if (r == 2)
            PUT_LIT(g, "P2P/IPC/read");
        else
            PUT_LIT(g, "P2P/IPC");
        break;
    }
    case 3: PUT_LIT(g, "Connected all rings"); break;
    case 4:
        PUT_LIT(g, "comm 0x");
        put_hex(g, 0x55d0a0000000ull + (rnd(g) & 0xfffffff0ull));
        PUT_LIT(g, " rank ");
        put_u(g, rank);
        PUT_LIT(g, " nranks 16 cudaDev ");
        put_u(g, rank % 8);
        PUT_LIT(g, " nvmlDev ");
        put_u(g, rank % 8);
        PUT_LIT(g, " busId ");
        put_hex(g, 0x18000 + (rank % 8) * 0x10000);
        PUT_LIT(g, " commId 0x");
        put_hex(g, rnd(g));
        PUT_LIT(g, " - Init COMPLETE");
        break;
    case 5:
        PUT_LIT(g, "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB ; OOB eth0:10.0.0.");
        put_u(g, 1 + rank / 8);
        PUT_LIT(g, "<0>");
        break;
    case 6:
        PUT_LIT(g, "Trees [0] ");
        put_u(g, (rank + 1) % 16);
        PUT_LIT(g, "/-1/-1->");
        put_u(g, rank);
        PUT_LIT(g, "->");
        put_u(g, (rank + 15) % 16);
        PUT_LIT(g, " [1] ");
        put_u(g, (rank + 1) % 16);
        PUT_LIT(g, "/-1/-1->");
        put_u(g, rank);
        PUT_LIT(g, "->");
        put_u(g, (rank + 15) % 16);
        break;
    case 7: PUT_LIT(g, "threadThresholds 8/8/64 | 128/8/64 | 512 | 512"); break;
    case 8:
        PUT_LIT(g, "24 coll channels, 0 collnet channels, 0 nvls channels, 32 p2p channels, 32 p2p channels per peer");
        break;
    default: PUT_LIT(g, "NCCL version 2.20.5+cuda12.4"); break;
    }
    put_ch(g, '\n');
}

/* {"step": 12, "loss": ..., ...} of 1-4 KB */
static void line_json(struct gen *g)
{
    static const char *const parts[] = {
        "self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj",
        "mlp.gate_proj",    "mlp.up_proj",      "mlp.down_proj",    "input_layernorm",
    };
    size_t start = g->len;
    size_t target = 1024 + rnd_below(g, 3072);
    unsigned layer = 0, part = 0;

    PUT_LIT(g, "{\"step\": ");
    put_u(g, g->step);
    PUT_LIT(g, ", \"loss\": ");
    put_fix(g, loss_now(g), 6);
    PUT_LIT(g, ", \"grad_norm\": ");
    put_fix(g, 0.2 + 1.5 * rnd_unit(g), 6);
    PUT_LIT(g, ", \"lr\": ");
    put_fix(g, lr_now(g), 8);
    PUT_LIT(g, ", \"tokens_per_sec\": ");
    put_fix(g, 120000.0 + 9000.0 * rnd_unit(g), 1);
    PUT_LIT(g, ", \"mfu\": ");
    put_fix(g, 0.38 + 0.08 * rnd_unit(g), 4);
    PUT_LIT(g, ", \"mem_allocated_gib\": ");
    put_fix(g, 60.0 + 10.0 * rnd_unit(g), 2);
    PUT_LIT(g, ", \"mem_reserved_gib\": ");
    put_fix(g, 72.0 + 4.0 * rnd_unit(g), 2);
    while (g->len - start < target) {
        PUT_LIT(g, ", \"grad_norm/model.layers.");
        put_u(g, layer);
        put_ch(g, '.');
        put_str(g, parts[part]);
        PUT_LIT(g, ".weight\": ");
        put_fix(g, 0.001 + 0.2 * rnd_unit(g), 6);
        if (++part == sizeof(parts) / sizeof(parts[0])) {
            part = 0;
            layer++;
        }
    }
    PUT_LIT(g, "}\n");
}

static void line_warning(struct gen *g)
{
    static const char *const warnings[] = {
        "/usr/lib/python3/dist-packages/torch/nn/modules/module.py:1501: UserWarning: Using a target size "
        "(torch.Size([32, 1])) that is different to the input size (torch.Size([32])). This will likely lead to "
        "incorrect results due to broadcasting. Please ensure they have the same size.",
        "/usr/local/lib/python3.10/dist-packages/torch/utils/checkpoint.py:464: UserWarning: torch.utils.checkpoint: "
        "the use_reentrant parameter should be passed explicitly. In version 2.4 we will raise an exception if "
        "use_reentrant is not passed. use_reentrant=False is recommended, but if you need to preserve the current "
        "default behavior, you can pass use_reentrant=True. Refer to docs for more details on the differences between "
        "the two variants.",
        "/usr/local/lib/python3.10/dist-packages/transformers/tokenization_utils_base.py:1601: FutureWarning: "
        "`clean_up_tokenization_spaces` was not set. It will be set to `True` by default. This behavior will be "
        "depracted in transformers v4.45, and will be then set to `False` by default.",
        "/usr/local/lib/python3.10/dist-packages/torch/autograd/graph.py:744: UserWarning: c10d::allreduce_: an "
        "autograd kernel was not registered to the Autograd key(s) but we are trying to backprop through it. This may "
        "lead to silently incorrect behavior.",
        "/usr/local/lib/python3.10/dist-packages/torch/distributed/fsdp/_state_dict_utils.py:773: UserWarning: When "
        "using ``NO_SHARD`` for ``ShardingStrategy``, full_state_dict will be returned.",
        "/usr/local/lib/python3.10/dist-packages/torch/_dynamo/variables/functions.py:663: UserWarning: Graph break "
        "due to unsupported builtin torch._C._nn.scaled_dot_product_attention. This function is either a Python "
        "builtin or a third-party C/C++ Python extension.",
    };

    maybe_rank_prefix(g);
    put_str(g, PICK(g, warnings));
    put_ch(g, '\n');
    maybe_rank_prefix(g);
    PUT_LIT(g, "  warnings.warn(\n");
}

static void line_glog(struct gen *g)
{
    unsigned rank = rnd_below(g, 8);

    PUT_LIT(g, "[rank");
    put_u(g, rank);
    PUT_LIT(g, "]:");
    put_glog(g, 'W', "ProcessGroupNCCL.cpp", 4115);
    PUT_LIT(g, "[PG 0 Rank ");
    put_u(g, rank);
    PUT_LIT(g, "]  using GPU ");
    put_u(g, rank);
    PUT_LIT(g, " to perform barrier as devices used by this process are currently unknown. This can potentially cause "
               "a hang if this rank to GPU mapping is incorrect.Specify device_ids in barrier() to force use of a "
               "particular device,or call init_process_group() with a device_id.\n");
}

/* lines that carry failure wording but report no failure */
static void line_near_miss(struct gen *g)
{
    unsigned r = rnd_below(g, 6);

    if (r == 0) {
        maybe_rank_prefix(g);
        PUT_LIT(g, "/usr/local/lib/python3.10/dist-packages/torch/cuda/memory.py:391: FutureWarning: "
                   "torch.cuda.memory_cached has been renamed to torch.cuda.memory_reserved\n");
        return;
    }
    put_logger_prefix(g, r == 1 ? "WARNING" : "INFO");
    switch (r) {
    case 1: PUT_LIT(g, "eval batch size reduced to 8 to avoid running out of memory on 24 GB cards"); break;
    case 2:
        PUT_LIT(g, "memory-efficient attention enabled: the out of memory errors seen with seq_len 8192 in run 12 "
                   "should not recur");
        break;
    case 3: PUT_LIT(g, "watchdog: collective timeout set to 600000 ms, TORCH_NCCL_ASYNC_ERROR_HANDLING=1"); break;
    case 4: PUT_LIT(g, "Killed 0 stale dataloader workers left over from the previous run"); break;
    default:
        PUT_LIT(g, "config: {\"max_split_size_mb\": 512, \"expandable_segments\": true, \"retry_on_oom\": false}");
        break;
    }
    put_ch(g, '\n');
}

/* one body line of a kind drawn by weight */
static void line_any(struct gen *g)
{
    unsigned r = rnd_below(g, 1000);

    clock_advance(&g->clk, 1000 + rnd_below(g, 400000));
    if (g->written + g->len >= g->next_near_miss) {
        g->next_near_miss += NEAR_MISS_EVERY / 2 + rnd_below(g, NEAR_MISS_EVERY);
        line_near_miss(g);
    } else if (r < 300)
        line_logger(g);
    else if (r < 640)
        line_step(g);
    else if (r < 880)
        line_nccl(g);
    else if (r < 890)
        line_tqdm(g);
    else if (r < 900)
        line_json(g);
    else if (r < 940)
        line_warning(g);
    else
        line_glog(g);
}

/* ---- the failure at the end ---- */

static void tail_traceback(struct gen *g)
{
    PUT_LIT(g,
            "[rank0]: Traceback (most recent call last):\n"
            "[rank0]:   File \"/workspace/train.py\", line 412, in <module>\n"
            "[rank0]:     main()\n"
            "[rank0]:   File \"/workspace/train.py\", line 388, in main\n"
            "[rank0]:     loss = model(**batch).loss\n"
            "[rank0]:   File \"/usr/local/lib/python3.10/dist-packages/torch/nn/modules/module.py\", line 1553, in "
            "_wrapped_call_impl\n"
            "[rank0]:     return self._call_impl(*args, **kwargs)\n"
            "[rank0]:   File \"/usr/local/lib/python3.10/dist-packages/torch/nn/modules/module.py\", line 1562, in "
            "_call_impl\n"
            "[rank0]:     return forward_call(*args, **kwargs)\n"
            "[rank0]:   File \"/usr/local/lib/python3.10/dist-packages/transformers/models/llama/modeling_llama.py\", "
            "line 1189, in forward\n"
            "[rank0]:     logits = logits.float()\n");
}

static void tail_oom(struct gen *g)
{
    PUT_LIT(g, "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
               "capacity of 79.15 GiB of which 1.06 GiB is free. Including non-PyTorch memory, this process has 78.08 "
               "GiB memory in use. Of the allocated memory 74.33 GiB is allocated by PyTorch, and 3.12 GiB is reserved "
               "by PyTorch but unallocated. If reserved but unallocated memory is large try setting "
               "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory "
               "Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)\n");
}

static void tail_watchdog(struct gen *g, unsigned rank)
{
    PUT_LIT(g, "[rank");
    put_u(g, rank);
    PUT_LIT(g, "]:");
    put_glog(g, 'E', "ProcessGroupNCCL.cpp", 616);
    PUT_LIT(g, "[Rank ");
    put_u(g, rank);
    PUT_LIT(g, "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=");
    put_u(g, g->seq);
    PUT_LIT(g, ", OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for ");
    put_u(g, 600000 + rank * 7 + 5);
    PUT_LIT(g, " milliseconds before timing out.\n");
}

static void tail_teardown(struct gen *g, unsigned rank)
{
    PUT_LIT(g, "[rank");
    put_u(g, rank);
    PUT_LIT(g, "]:");
    put_glog(g, 'E', "ProcessGroupNCCL.cpp", 630);
    PUT_LIT(g, "[Rank ");
    put_u(g, rank);
    PUT_LIT(g, "] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, "
               "subsequent GPU operations might run on corrupted/incomplete data.\n");
    PUT_LIT(g, "[rank");
    put_u(g, rank);
    PUT_LIT(g, "]:");
    put_glog(g, 'E', "ProcessGroupNCCL.cpp", 636);
    PUT_LIT(g, "[Rank ");
    put_u(g, rank);
    PUT_LIT(g, "] To avoid data inconsistency, we are taking the entire process down.\n");
}

/* level 2: everything; 1: OOM line and one watchdog; 0: OOM line only */
static void tail(struct gen *g, int level)
{
    if (level >= 2)
        tail_traceback(g);
    tail_oom(g);
    clock_advance(&g->clk, 600000000u); /* the peers time out 10 min later */
    if (level >= 1)
        tail_watchdog(g, 1);
    if (level >= 2) {
        tail_watchdog(g, 2);
        tail_watchdog(g, 3);
        tail_teardown(g, 1);
    }
}

/* length of tail(level), measured by writing it and taking it back */
static size_t tail_len(struct gen *g, int level)
{
    struct clock saved = g->clk;
    size_t start = g->len, n;

    tail(g, level);
    n = g->len - start;
    g->len = start;
    g->clk = saved;
    return n;
}

/* a filler line of exactly n bytes (n >= 1), newline included */
static void line_pad(struct gen *g, size_t n)
{
    static const char words[] = "heartbeat ok ";
    size_t start = g->len, i;

    if (n > 1) {
        put_timestamp(g);
        PUT_LIT(g, " - INFO - ");
        for (i = 0; g->len - start < n - 1; i++)
            put_ch(g, words[i % (sizeof(words) - 1)]);
        g->len = start + n - 1; /* cut a prefix longer than n */
    }
    put_ch(g, '\n');
}

/* ---- a whole log ---- */

static void gen_init(struct gen *g, FILE *out, char *buf, uint64_t seed)
{
    memset(g, 0, sizeof(*g));
    g->out = out;
    g->buf = buf;
    g->rng = splitmix64(seed) | 1;
    g->clk = (struct clock){2026, 11, 29, 10, 11, 12, 345000};
    clock_advance(&g->clk, rnd_below(g, 3600000) * 1000u);
    g->step = rnd_below(g, 5000);
    g->total_steps = 100000;
    g->seq = 1000 + rnd_below(g, 9000);
    g->pid_base = 10000 + rnd_below(g, 50000);
    g->next_near_miss = NEAR_MISS_EVERY / 2 + rnd_below(g, NEAR_MISS_EVERY);
}

/* write exactly size bytes (unless size is below the shortest ending) */
static int gen_log(struct gen *g, uint64_t size)
{
    int level = 2;
    size_t tlen;
    int short_only = 0;

    while (level > 0 && tail_len(g, level) > size / 4 * 3)
        level--;
    tlen = tail_len(g, level);
    for (;;) {
        uint64_t room = size > tlen ? size - tlen : 0;
        size_t start;

        if (g->len > BUF_SIZE - MAX_LINE)
            flush_buf(g);
        start = g->len;
        if (short_only)
            line_step(g);
        else
            line_any(g);
        if (g->written + g->len > room) {
            g->len = start;
            if (short_only) {
                uint64_t gap = room - (g->written + g->len);

                if (gap > 0)
                    line_pad(g, (size_t)gap);
                break;
            }
            short_only = 1;
        }
    }
    tail(g, level);
    flush_buf(g);
    return g->write_error ? -1 : 0;
}

static int parse_size(const char *s, uint64_t *out)
{
    char *end;
    unsigned long long v;

    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno != 0 || end == s || s[0] == '-')
        return -1;
    switch (*end) {
    case 'K':
    case 'k':
        v <<= 10;
        end++;
        break;
    case 'M':
    case 'm':
        v <<= 20;
        end++;
        break;
    case 'G':
    case 'g':
        v <<= 30;
        end++;
        break;
    default: break;
    }
    if (*end == 'i' && end[1] == 'B')
        end += 2;
    else if (*end == 'B')
        end++;
    if (*end != '\0')
        return -1;
    *out = v;
    return 0;
}

static int usage(void)
{
    fputs("usage: genlog SIZE [SEED] > FILE\n"
          "       genlog -d DIR COUNT [SEED]\n",
          stderr);
    return 2;
}

int main(int argc, char **argv)
{
    static char buf[BUF_SIZE];
    struct gen g;
    uint64_t size, seed = 1, count, i;

    if (argc >= 4 && argc <= 5 && strcmp(argv[1], "-d") == 0) {
        if (parse_size(argv[3], &count) != 0 || (argc == 5 && parse_size(argv[4], &seed) != 0))
            return usage();
        for (i = 0; i < count; i++) {
            char path[4096];
            FILE *f;
            uint64_t fseed = splitmix64(seed * 1000003u + i);
            int rc;

            snprintf(path, sizeof(path), "%s/rank-%05llu.log", argv[2], (unsigned long long)i);
            f = fopen(path, "wb");
            if (f == NULL) {
                fprintf(stderr, "genlog: %s: %s\n", path, strerror(errno));
                return 1;
            }
            gen_init(&g, f, buf, fseed);
            rc = gen_log(&g, 2048 + fseed % 6145);
            if (fclose(f) != 0 || rc != 0) {
                fprintf(stderr, "genlog: %s: write failed\n", path);
                return 1;
            }
        }
        return 0;
    }
    if (argc < 2 || argc > 3 || parse_size(argv[1], &size) != 0 || (argc == 3 && parse_size(argv[2], &seed) != 0))
        return usage();
    gen_init(&g, stdout, buf, seed);
    if (gen_log(&g, size) != 0 || fflush(stdout) != 0) {
        fputs("genlog: write failed\n", stderr);
        return 1;
    }
    return 0;
}
