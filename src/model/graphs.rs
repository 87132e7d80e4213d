//! The graphs of one model on one device session: emitted in memory from the
//! model's shape, compiled through the module cache, loaded into the session
//! and looked up by kind. Graphs the load did not ask for are compiled on the
//! first call that needs them when the model allows it.

use std::collections::HashMap;
use std::time::Instant;

use super::{LoadStats, ModelError, Result};
use crate::compile::{Compiler, ModuleCache, Target};
use crate::emit::{self, GraphConfig, GraphKind, LlamaShape};
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
}

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
        }
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
        let graph = emit::emit_graph(&self.shape, &self.config, kind);
        let module =
            self.cache
                .get_or_compile(&self.compiler, &self.target, &graph.name(), &graph.mlir)?;
        session.load_module(&module.path)?;
        self.functions
            .insert(kind, session.function(&graph.entry())?);
        stats.modules += 1;
        stats.modules_compiled += usize::from(!module.hit);
        stats
            .graphs
            .push((graph.name(), start.elapsed(), !module.hit));
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

    /// A loaded graph's entry point.
    pub fn function(&self, kind: GraphKind) -> Result<&Function> {
        self.functions
            .get(&kind)
            .ok_or_else(|| ModelError::GraphNotLoaded(kind.name()))
    }
}
