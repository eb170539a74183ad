//! `--only tasks`: the tasks on real UI kits (`tabwright_tests::tasks`),
//! each run `runs` times by the scripted policy on each backend: how many
//! succeeded, and the tokens of the answers it read (median).

use tabwright_tests::site::Site;
use tabwright_tests::tasks::{Policy, TASKS};
use tabwright_tests::Backend;

use crate::measure::median_of;

/// Runs every task `runs` times on `backend` and prints a line each.
pub async fn task_costs(backend: Backend, runs: usize) -> Result<(), String> {
    let site = Site::with_kits().await;
    println!(
        "{}: the kit tasks, {runs} episodes each (successes, median tokens read, median calls)",
        backend.name()
    );
    let (mut solved, mut episodes, mut all_tokens) = (0, 0, 0);
    for task in TASKS {
        let mut successes = 0;
        let mut tokens = Vec::new();
        let mut calls = Vec::new();
        for _ in 0..runs {
            let mut policy = Policy::new(backend, &site);
            let result = policy.run(task).await;
            if result.is_ok() {
                successes += 1;
            }
            tokens.push(policy.tokens);
            calls.push(policy.calls);
            policy.close().await;
        }
        solved += successes;
        episodes += runs;
        let tokens = median_of(&mut tokens);
        all_tokens += tokens;
        println!(
            "  {:<16} {:<28} {successes:>3}/{runs}  {tokens:>6} tokens  {:>3} calls",
            task.page.trim_end_matches(".html"),
            task.name,
            median_of(&mut calls)
        );
    }
    println!("  all: {solved}/{episodes} solved, {all_tokens} tokens (sum of the medians)");
    Ok(())
}
