//! The graphs of one model on one device session: emitted in memory from the
//! model's shape, compiled through the module cache, loaded into the session
//! and looked up by kind. Graphs the load did not ask for are compiled on the
//! first call that needs them when the model allows it.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

use super::{LoadProgress, LoadStats, ModelError, Result};
use crate::compile::{CachedModule, CallSchedule, Compiler, ModuleCache, Target};
use crate::emit::{self, Graph, GraphConfig, GraphKind, LlamaShape};
use crate::runtime::{Function, Session};

/// The loaded graphs of one model, by kind.
pub struct GraphSet {
    shape: LlamaShape,
    config: GraphConfig,
    compiler: Compiler,
    cache: ModuleCache,
    target: Target,
    compile_on_demand: bool,
    functions: HashMap<GraphKind, Function>,
    background: Background,
}

/// Graphs compiled on a thread of their own while the session serves
/// ([`GraphSet::compile_in_background`]), waiting to be loaded.
#[derive(Default)]
struct Background {
    /// Asked for and not installed yet (compiling, queued or compiled).
    asked: HashSet<GraphKind>,
    sender: Option<mpsc::Sender<GraphKind>>,
    /// In a mutex so that the set stays `Sync` for [`GraphSet::load_all`]'s
    /// compile threads.
    done: Option<Mutex<mpsc::Receiver<Compiled>>>,
}

type Compiled = (GraphKind, Result<(Graph, CachedModule, Duration)>);

impl GraphSet {
    pub fn new(
        shape: LlamaShape,
        config: GraphConfig,
        compiler: Compiler,
        cache: ModuleCache,
        target: Target,
        compile_on_demand: bool,
    ) -> Self {
        GraphSet {
            shape,
            config,
            compiler,
            cache,
            target,
            compile_on_demand,
            functions: HashMap::new(),
            background: Background::default(),
        }
    }

    /// Starts compiling the graphs of `kinds` that are neither loaded nor
    /// asked for already, one at a time on a thread of their own at the
    /// lowest priority ([`crate::compile::lower_thread_priority`]), into the
    /// module cache; [`Self::install_compiled`] loads those that are done.
    /// For graphs worth having but not worth a wait in the middle of
    /// serving. Nothing happens unless the set compiles on demand.
    pub fn compile_in_background(&mut self, kinds: &[GraphKind]) {
        if !self.compile_on_demand {
            return;
        }
        for &kind in kinds {
            if self.functions.contains_key(&kind) || self.background.asked.contains(&kind) {
                continue;
            }
            let sender = self.background.sender.get_or_insert_with(|| {
                let (tx, rx) = mpsc::channel::<GraphKind>();
                let (done_tx, done_rx) = mpsc::channel();
                let (shape, config) = (self.shape.clone(), self.config.clone());
                let (compiler, cache, target) = (
                    self.compiler.clone(),
                    self.cache.clone(),
                    self.target.clone(),
                );
                std::thread::spawn(move || {
                    // On a machine this small a compile at normal priority
                    // takes a core from every step it overlaps.
                    if !crate::compile::lower_thread_priority() {
                        tracing::debug!("background compiles run at normal priority");
                    }
                    for kind in rx {
                        let start = Instant::now();
                        let graph = emit::emit_graph(&shape, &config, kind);
                        let module = cache
                            .get_or_compile(&compiler, &target, &graph.name(), &graph.mlir)
                            .map_err(ModelError::from);
                        let result = module.map(|m| (graph, m, start.elapsed()));
                        if done_tx.send((kind, result)).is_err() {
                            return;
                        }
                    }
                });
                self.background.done = Some(Mutex::new(done_rx));
                tx
            });
            if sender.send(kind).is_ok() {
                self.background.asked.insert(kind);
            }
        }
    }

    /// Loads into `session` the graphs compiled in the background since
    /// the last call; returns how many. One that failed to compile is
    /// logged and left out (asked for again, it compiles on demand).
    pub fn install_compiled(&mut self, session: &mut Session, stats: &mut LoadStats) -> usize {
        let Some(done) = &self.background.done else {
            return 0;
        };
        let finished: Vec<Compiled> = match done.lock() {
            Ok(rx) => rx.try_iter().collect(),
            Err(_) => return 0,
        };
        let mut installed = 0;
        for (kind, result) in finished {
            self.background.asked.remove(&kind);
            let outcome = result.and_then(|(graph, module, took)| {
                self.install(session, graph, module, took, stats)
            });
            match outcome {
                Ok(()) => installed += 1,
                Err(e) => {
                    tracing::warn!(graph = %kind.name(), error = %e, "background compile failed")
                }
            }
        }
        installed
    }

    /// Graphs asked for in the background and not installed yet.
    pub fn compiling(&self) -> usize {
        self.background.asked.len()
    }

    /// Emits, compiles (or finds in the cache) and loads one graph into
    /// `session`, recording the time it took in `stats`.
    pub fn load(
        &mut self,
        session: &mut Session,
        kind: GraphKind,
        stats: &mut LoadStats,
    ) -> Result<()> {
        if self.functions.contains_key(&kind) {
            return Ok(());
        }
        let start = Instant::now();
        let (graph, module) = self.compile(kind)?;
        self.install(session, graph, module, start.elapsed(), stats)
    }

    /// Loads every graph of `kinds` into `session` like [`Self::load`], with
    /// up to [`compile_jobs`] compiles running at once: iree-compile keeps
    /// only a few cores busy, so on a machine with many cores a model's
    /// dozens of graphs compile several times faster side by side. Modules
    /// are loaded in the order of `kinds` whatever order they finish in.
    pub fn load_all(
        &mut self,
        session: &mut Session,
        kinds: &[GraphKind],
        stats: &mut LoadStats,
        progress: &dyn LoadProgress,
    ) -> Result<()> {
        let mut todo: Vec<GraphKind> = Vec::new();
        for &kind in kinds {
            if !self.functions.contains_key(&kind) && !todo.contains(&kind) {
                todo.push(kind);
            }
        }
        // Graphs already loaded count as done.
        progress.advance((kinds.len() - todo.len()) as u64);
        let jobs = compile_jobs().min(todo.len()).max(1);
        let next = AtomicUsize::new(0);
        let (tx, rx) = mpsc::channel();
        let mut done: Vec<Option<Result<(Graph, CachedModule, Duration)>>> =
            (0..todo.len()).map(|_| None).collect();
        let this = &*self;
        std::thread::scope(|s| {
            for _ in 0..jobs {
                let tx = tx.clone();
                let (next, todo) = (&next, &todo);
                s.spawn(move || {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&kind) = todo.get(i) else { break };
                        let start = Instant::now();
                        let result = this.compile(kind).map(|(g, m)| (g, m, start.elapsed()));
                        let failed = result.is_err();
                        if tx.send((i, result)).is_err() || failed {
                            // Stop taking new graphs: the load fails anyway.
                            next.store(todo.len(), Ordering::Relaxed);
                            break;
                        }
                    }
                });
            }
            drop(tx);
            for (i, result) in rx {
                progress.advance(1);
                done[i] = Some(result);
            }
        });
        for result in done {
            let Some(result) = result else { continue };
            let (graph, module, took) = result?;
            self.install(session, graph, module, took, stats)?;
        }
        Ok(())
    }

    /// Emits `kind` and compiles it, or finds it in the cache.
    fn compile(&self, kind: GraphKind) -> Result<(Graph, CachedModule)> {
        let graph = emit::emit_graph(&self.shape, &self.config, kind);
        let module =
            self.cache
                .get_or_compile(&self.compiler, &self.target, &graph.name(), &graph.mlir)?;
        Ok((graph, module))
    }

    /// Loads a compiled graph's module into `session` and records it.
    fn install(
        &mut self,
        session: &mut Session,
        graph: Graph,
        module: CachedModule,
        took: Duration,
        stats: &mut LoadStats,
    ) -> Result<()> {
        let kind = graph.kind;
        let start = Instant::now();
        session.load_module(&module.path)?;
        self.functions
            .insert(kind, session.function(&graph.entry())?);
        stats.modules += 1;
        stats.modules_compiled += usize::from(!module.hit);
        stats
            .graphs
            .push((graph.name(), took + start.elapsed(), !module.hit));
        Ok(())
    }

    /// Makes sure `kind` is loaded, compiling it now if the set was made
    /// with `compile_on_demand`.
    pub fn ensure(
        &mut self,
        session: &mut Session,
        kind: GraphKind,
        stats: &mut LoadStats,
    ) -> Result<()> {
        if !self.compile_on_demand && !self.functions.contains_key(&kind) {
            return Err(ModelError::GraphNotLoaded(kind.name()));
        }
        self.load(session, kind, stats)
    }

    /// What one call of graph `kind` asks of the device (dispatches, copies,
    /// fills), counted once from its stream IR and then read from the cache.
    pub fn call_schedule(&self, kind: GraphKind) -> Result<CallSchedule> {
        let graph = emit::emit_graph(&self.shape, &self.config, kind);
        Ok(self
            .cache
            .call_schedule(&self.compiler, &self.target, &graph.name(), &graph.mlir)?)
    }

    /// A loaded graph's entry point.
    pub fn function(&self, kind: GraphKind) -> Result<&Function> {
        self.functions
            .get(&kind)
            .ok_or_else(|| ModelError::GraphNotLoaded(kind.name()))
    }
}

/// How many graphs compile at once: `$IREE_LLM_COMPILE_JOBS`, else half the
/// cores (an iree-compile runs threads of its own), at least one.
pub fn compile_jobs() -> usize {
    std::env::var("IREE_LLM_COMPILE_JOBS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()) / 2)
        .max(1)
}
