//! The engine thread and the channels the HTTP side reaches it through.
//!
//! The engine lives on one dedicated OS thread and is touched by nothing
//! else. The thread blocks on its command channel while the engine is idle;
//! while it is busy it takes every pending command without blocking, then
//! runs one [`Engine::step`] and routes each [`Event`] to the channel of the
//! request it belongs to. It publishes the engine's load (queue depth, active
//! slots) after every change and before anyone can observe the change (a
//! submit reply, an event), and records token timings in [`Metrics`].
//!
//! A request whose event channel has been dropped (its HTTP side is gone) is
//! cancelled at its next event, as a backstop for the explicit
//! [`Command::Cancel`] the HTTP side sends.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Instant;

use tokio::sync::{mpsc as tmpsc, oneshot};

use super::metrics::Metrics;
use crate::engine::{Engine, Event, Request, SubmitError};
use crate::types::RequestId;

/// What the HTTP side asks of the engine thread.
pub enum Command {
    /// Queue a request with one choice per sender of `events` (OpenAI's
    /// `n`): the ids (`Engine::submit` for one choice, `submit_choices` for
    /// more) go to `reply`, then every event of choice `i` goes to
    /// `events[i]`.
    Submit {
        request: Request,
        /// When the HTTP request arrived (time to first token counts from here).
        arrived: Instant,
        reply: oneshot::Sender<Result<Vec<RequestId>, SubmitError>>,
        events: Vec<tmpsc::UnboundedSender<Event>>,
    },
    /// Cancel a queued or running request (ignored if it already ended).
    Cancel(RequestId),
    /// Cancel everything, report the cancellations, and stop the thread.
    Shutdown,
}

/// One accepted choice: its id in the engine and its events.
pub type Submitted = (RequestId, tmpsc::UnboundedReceiver<Event>);

/// The engine thread is gone (it panicked or was shut down).
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error("the engine has stopped")]
pub struct WorkerGone;

/// A cloneable handle for sending commands to the engine thread.
#[derive(Clone, Debug)]
pub struct WorkerHandle {
    commands: mpsc::Sender<Command>,
    alive: Arc<AtomicBool>,
    capacity: usize,
}

impl WorkerHandle {
    /// Submits `n` choices of `request`; resolves once the engine accepted
    /// or refused them. On success, one id and event receiver per choice, in
    /// choice order; each receiver's last event is `Event::Finished`.
    pub async fn submit(
        &self,
        request: Request,
        n: usize,
        arrived: Instant,
    ) -> Result<Result<Vec<Submitted>, SubmitError>, WorkerGone> {
        let (reply, result) = oneshot::channel();
        let (events, receivers): (Vec<_>, Vec<_>) =
            (0..n.max(1)).map(|_| tmpsc::unbounded_channel()).unzip();
        self.commands
            .send(Command::Submit {
                request,
                arrived,
                reply,
                events,
            })
            .map_err(|_| WorkerGone)?;
        let result = result.await.map_err(|_| WorkerGone)?;
        Ok(result.map(|ids| ids.into_iter().zip(receivers).collect()))
    }

    /// Asks the engine to cancel `id` (no reply; a no-op if it ended).
    pub fn cancel(&self, id: RequestId) {
        let _ = self.commands.send(Command::Cancel(id));
    }

    /// Stops taking requests and cancels those still running; the engine
    /// thread ends once they have reported their cancellation.
    pub fn shutdown(&self) {
        let _ = self.commands.send(Command::Shutdown);
    }

    /// Whether the engine thread is still running.
    pub fn is_alive(&self) -> bool {
        self.alive.load(Ordering::Relaxed)
    }

    /// Tokens per slot of the engine (prompt plus generated).
    pub fn capacity(&self) -> usize {
        self.capacity
    }
}

/// Owns the engine thread. [`Worker::shutdown`] cancels whatever is still
/// running and joins the thread; dropping the worker asks for the same but
/// does not wait (a drop must not block an async runtime).
#[derive(Debug)]
pub struct Worker {
    handle: WorkerHandle,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Moves `engine` onto a new thread named `iree-llm-engine`.
    pub fn spawn(engine: Box<dyn Engine>, metrics: Arc<Metrics>) -> std::io::Result<Self> {
        let (commands, rx) = mpsc::channel();
        let alive = Arc::new(AtomicBool::new(true));
        let capacity = engine.capacity();
        metrics.set_status(engine.status());
        let flag = alive.clone();
        let thread = std::thread::Builder::new()
            .name("iree-llm-engine".into())
            .spawn(move || {
                // Cleared however the thread ends, panics included.
                struct Alive(Arc<AtomicBool>);
                impl Drop for Alive {
                    fn drop(&mut self) {
                        self.0.store(false, Ordering::Relaxed);
                    }
                }
                let _alive = Alive(flag);
                EngineLoop::new(engine, metrics).run(rx);
            })?;
        Ok(Worker {
            handle: WorkerHandle {
                commands,
                alive,
                capacity,
            },
            thread: Some(thread),
        })
    }

    pub fn handle(&self) -> WorkerHandle {
        self.handle.clone()
    }

    /// Cancels everything still running and waits for the thread to end.
    pub fn shutdown(mut self) {
        self.handle.shutdown();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.handle.shutdown();
    }
}

/// A live request as the engine thread sees it.
struct Live {
    events: tmpsc::UnboundedSender<Event>,
    arrived: Instant,
    last_token: Option<Instant>,
    /// A cancel was already sent to the engine for it.
    cancelled: bool,
}

struct EngineLoop {
    engine: Box<dyn Engine>,
    metrics: Arc<Metrics>,
    live: HashMap<RequestId, Live>,
    shutting_down: bool,
}

impl EngineLoop {
    fn new(engine: Box<dyn Engine>, metrics: Arc<Metrics>) -> Self {
        EngineLoop {
            engine,
            metrics,
            live: HashMap::new(),
            shutting_down: false,
        }
    }

    fn run(mut self, commands: mpsc::Receiver<Command>) {
        loop {
            if self.engine.is_idle() {
                if self.shutting_down {
                    break;
                }
                // Nothing to do: sleep until the next command. All senders
                // gone (the server was dropped) means the same as Shutdown.
                match commands.recv() {
                    Ok(c) => self.handle(c),
                    Err(_) => break,
                }
            }
            loop {
                match commands.try_recv() {
                    Ok(c) => self.handle(c),
                    Err(mpsc::TryRecvError::Empty) => break,
                    Err(mpsc::TryRecvError::Disconnected) => {
                        self.shutdown();
                        break;
                    }
                }
            }
            if !self.engine.is_idle() {
                let events = self.engine.step();
                // Published before the events go out, so a client that sees
                // an event never reads an older load in /metrics.
                self.publish_status();
                self.route(events);
            }
        }
        self.publish_status();
    }

    fn publish_status(&self) {
        self.metrics.set_status(self.engine.status());
        self.metrics
            .set_reused_prompt_tokens(self.engine.stats().reused_tokens);
    }

    fn handle(&mut self, command: Command) {
        match command {
            Command::Submit {
                request,
                arrived,
                reply,
                events,
            } => {
                if self.shutting_down {
                    // The reply is dropped: the caller sees WorkerGone.
                    return;
                }
                // One choice takes the plain path, so `n: 1` is today's request.
                let result = match events.len() {
                    1 => self.engine.submit(request).map(|id| vec![id]),
                    n => self.engine.submit_choices(request, n),
                };
                self.publish_status();
                match result {
                    Ok(ids) => {
                        // Err: the HTTP side gave up while we were submitting.
                        let gone = reply.send(Ok(ids.clone())).is_err();
                        for (id, events) in ids.into_iter().zip(events) {
                            if gone {
                                self.engine.cancel(id);
                            }
                            self.live.insert(
                                id,
                                Live {
                                    events,
                                    arrived,
                                    last_token: None,
                                    cancelled: gone,
                                },
                            );
                        }
                        if gone {
                            self.publish_status();
                        }
                    }
                    Err(e) => {
                        let _ = reply.send(Err(e));
                    }
                }
            }
            Command::Cancel(id) => {
                if let Some(live) = self.live.get_mut(&id)
                    && !live.cancelled
                {
                    live.cancelled = true;
                    self.engine.cancel(id);
                    self.publish_status();
                }
            }
            Command::Shutdown => self.shutdown(),
        }
    }

    fn shutdown(&mut self) {
        self.shutting_down = true;
        for (id, live) in &mut self.live {
            if !live.cancelled {
                live.cancelled = true;
                self.engine.cancel(*id);
            }
        }
    }

    fn route(&mut self, events: Vec<Event>) {
        let now = Instant::now();
        for event in events {
            let id = event.id();
            let finished = matches!(event, Event::Finished { .. });
            let Some(live) = self.live.get_mut(&id) else {
                continue;
            };
            if let Event::Token { .. } = event {
                self.metrics.add_generated_tokens(1);
                match live.last_token {
                    None => self.metrics.time_to_first_token.observe(now - live.arrived),
                    Some(t) => self.metrics.inter_token_latency.observe(now - t),
                }
                live.last_token = Some(now);
            }
            if live.events.send(event).is_err() && !finished && !live.cancelled {
                // Nobody is listening any more.
                live.cancelled = true;
                self.engine.cancel(id);
            }
            if finished {
                self.live.remove(&id);
            }
        }
    }
}
