//! Criterion benchmark of the guard over the whole corpus (≥200 calls mixing valid,
//! repairable and invalid arguments). Per-call time = reported time / corpus size.
//!
//! Run: `cargo bench -p deskmate-tools --bench guard`

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

mod corpus;

fn bench(c: &mut Criterion) {
    let corpus = corpus::load();
    let guard = corpus.registry.guard();
    let n = corpus.cases.len();
    c.bench_function(&format!("guard/corpus_of_{n}_calls"), |b| {
        b.iter_batched(
            || {
                corpus
                    .cases
                    .iter()
                    .map(|c| (c.arguments.clone(), c.answer.clone()))
                    .collect::<Vec<_>>()
            },
            |inputs| {
                // Outcomes are returned to criterion, which drops them outside the timing.
                corpus
                    .cases
                    .iter()
                    .zip(inputs)
                    .map(|(case, (arguments, answer))| {
                        corpus::guard_call(guard, &case.tool, arguments, answer)
                    })
                    .collect::<Vec<_>>()
            },
            BatchSize::LargeInput,
        );
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
