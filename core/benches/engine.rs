//! Criterion benchmarks: full random games and legal-play generation for every preset.
//!
//! `make bench` (or `cargo bench -p pachisi --bench engine`); numbers in docs/PERFORMANCE.md.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use pachisi::play::Play;
use pachisi::sim::{game_seed, random_game, uniform_index};
use pachisi::system::{Node, Orders, RuleSystem, SystemRules};
use pachisi::{Registered, Rules, SystemVisitor};
use std::hint::black_box;

/// Decision positions reached by random play from fixed seeds (a fixed mid-game sample).
fn sample_positions<R: RuleSystem>(sys: &R, wanted: usize) -> Vec<R::State> {
    let mut out = Vec::new();
    let mut buf = Vec::new();
    let mut seed = 0;
    while out.len() < wanted && seed < 1000 {
        let mut rng = pachisi::dice::rng_from_seed(seed);
        let mut s = sys.initial_state();
        let mut decisions = 0;
        while sys.node(&s) != Node::Over && decisions < 400 {
            if sys.node(&s) == Node::Chance {
                let r = sys.sample_roll(&s, &mut rng);
                sys.begin_roll(&mut s, r);
                continue;
            }
            buf.clear();
            sys.generate(&s, Orders::Distinct, &mut buf);
            decisions += 1;
            if decisions % 25 == 0 && out.len() < wanted {
                out.push(s);
            }
            let play = if buf.is_empty() {
                Play::new()
            } else {
                buf[uniform_index(&mut rng, buf.len())]
            };
            for st in play.steps() {
                sys.apply_step(&mut s, st);
            }
            sys.end_play(&mut s, play.steps());
        }
        seed += 1;
    }
    out
}

fn bench_system<T: SystemRules>(c: &mut Criterion, name: &str, rules: &T) {
    let sys = rules.build().expect("preset builds");
    let mut group = c.benchmark_group("random_game");
    group.throughput(Throughput::Elements(1));
    group.sample_size(20);
    let mut buf = pachisi::sim::SimBuffers::new();
    let mut i = 0u64;
    group.bench_function(BenchmarkId::from_parameter(name), |b| {
        b.iter(|| {
            i += 1;
            black_box(random_game(&sys, game_seed(1, i), &mut buf))
        })
    });
    group.finish();

    let positions = sample_positions(&sys, 64);
    if positions.is_empty() {
        return;
    }
    let mut group = c.benchmark_group("generate");
    let mut buf = Vec::with_capacity(256);
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function(BenchmarkId::from_parameter(name), |b| {
        b.iter(|| {
            let mut n = 0;
            for s in &positions {
                buf.clear();
                sys.generate(black_box(s), Orders::Distinct, &mut buf);
                n += buf.len();
            }
            black_box(n)
        })
    });
    group.finish();
}

fn engine(c: &mut Criterion) {
    for v in pachisi::variants() {
        let rules = Rules::preset(v).expect("preset");
        struct Bench<'a, 'c>(&'c mut Criterion, &'a str);
        impl SystemVisitor for Bench<'_, '_> {
            type Output = ();
            fn visit<T: Registered>(self, rules: &T) {
                bench_system(self.0, self.1, rules)
            }
        }
        rules.config().visit(Bench(c, v));
    }
}

criterion_group!(benches, engine);
criterion_main!(benches);
