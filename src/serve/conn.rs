//! Connections: accepting them (at most `max_connections` at once), closing
//! those a client holds without using them (header, body and keep-alive
//! timeouts), and draining them at shutdown.
//!
//! Each accepted socket gets its own hyper connection task. The task knows
//! when bytes last moved and how many requests are in flight on it; that is
//! what tells an idle keep-alive connection from one waiting on a slow
//! generation. At shutdown the accept loop stops, every connection is told
//! to finish its running request and close, and whatever still runs at the
//! drain deadline is cut.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use http_body::{Body as HttpBody, Frame, SizeHint};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tokio::time::{Instant, Sleep};
use tower::ServiceExt;

/// Limits on connections and the shutdown drain.
#[derive(Clone, Debug)]
pub struct HttpOptions {
    /// A request head must arrive within this of the connection waiting
    /// for it (hyper's header-read timeout).
    pub header_timeout: Duration,
    /// A request body must arrive whole within this of its head.
    pub body_timeout: Duration,
    /// A connection with no request in flight and no bytes moving for this
    /// long is closed.
    pub keep_alive_timeout: Duration,
    /// Connections open at once; more wait in the listen backlog.
    pub max_connections: usize,
    /// At shutdown, how long running requests may go on before they are
    /// cancelled (zero: at once).
    pub drain_timeout: Duration,
    /// `Host` names served besides the loopback ones (`--allowed-hosts`;
    /// `*`: any). `None`: loopback names only when bound to loopback, any
    /// name otherwise.
    pub allowed_hosts: Option<Vec<String>>,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            keep_alive_timeout: Duration::from_secs(5),
            max_connections: 512,
            drain_timeout: Duration::from_secs(30),
            allowed_hosts: None,
        }
    }
}

/// After the drain deadline, how long cancelled streams get to send their
/// error event before their connections are dropped.
const CUT_GRACE: Duration = Duration::from_secs(2);
/// While draining, a connection with nothing in flight and no bytes moving
/// for this long (a half-sent request) is dropped.
const DRAIN_IDLE: Duration = Duration::from_millis(500);

/// What the accept loop tells its connections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Serving,
    /// Finish the request in flight, then close.
    Draining,
    /// Close now.
    Closing,
}

/// Serves `app` on `listener` until `shutdown` resolves, then drains: stops
/// accepting, lets running requests finish for up to `drain_timeout`, calls
/// `cut` (which must make the rest end), waits a short grace for them, and
/// drops whatever connection is left. Returns once no connection is open.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    opts: &HttpOptions,
    shutdown: impl Future<Output = ()>,
    cut: impl FnOnce(),
) {
    let all = u32::try_from(opts.max_connections).unwrap_or(u32::MAX);
    let permits = Arc::new(Semaphore::new(all as usize));
    let (phase_tx, phase_rx) = watch::channel(Phase::Serving);
    let settings = Arc::new(opts.clone());
    tokio::pin!(shutdown);
    loop {
        // Holding off `accept` at the cap leaves further clients in the
        // kernel's backlog instead of spending a descriptor on each.
        let permit = tokio::select! {
            () = &mut shutdown => break,
            p = permits.clone().acquire_owned() => p.expect("the semaphore is never closed"),
        };
        let stream = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    accept_error(e).await;
                    continue;
                }
            },
        };
        tokio::spawn(connection(
            stream,
            app.clone(),
            settings.clone(),
            phase_rx.clone(),
            permit,
        ));
    }
    drop(listener);
    let _ = phase_tx.send(Phase::Draining);
    let drained = tokio::time::timeout(opts.drain_timeout, permits.acquire_many(all))
        .await
        .is_ok();
    if !drained {
        tracing::warn!(
            "drain deadline of {:?} reached: cancelling the requests still running",
            opts.drain_timeout
        );
    }
    cut();
    if !drained
        && tokio::time::timeout(CUT_GRACE, permits.acquire_many(all))
            .await
            .is_err()
    {
        let _ = phase_tx.send(Phase::Closing);
        let _ = tokio::time::timeout(CUT_GRACE, permits.acquire_many(all)).await;
    }
}

/// An `accept` that failed: a connection reset before it was taken is
/// nothing; anything else (out of descriptors) is logged and waited out,
/// since retrying at once would only spin.
async fn accept_error(e: std::io::Error) {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(
        e.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        return;
    }
    tracing::error!("accept failed: {e}; retrying in 1 s");
    tokio::time::sleep(Duration::from_secs(1)).await;
}

async fn connection(
    stream: TcpStream,
    app: Router,
    settings: Arc<HttpOptions>,
    mut phase: watch::Receiver<Phase>,
    _permit: OwnedSemaphorePermit,
) {
    let _ = stream.set_nodelay(true);
    let activity = Arc::new(Activity::new());
    let io = TokioIo::new(TrackedIo {
        inner: stream,
        activity: activity.clone(),
    });
    let service = {
        let activity = activity.clone();
        let body_timeout = settings.body_timeout;
        hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
            let in_flight = InFlight::begin(activity.clone());
            let req = req.map(|b| Body::new(DeadlineBody::new(b, body_timeout)));
            let app = app.clone();
            async move {
                let resp = app.oneshot(req).await?;
                Ok::<_, Infallible>(resp.map(|inner| {
                    Body::new(TrackedBody {
                        inner,
                        _in_flight: in_flight,
                    })
                }))
            }
        })
    };
    // HTTP/1.1 only, as before (OpenAI clients speak it; no h2c).
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(settings.header_timeout)
        .serve_connection(io, service)
        .with_upgrades();
    tokio::pin!(conn);
    let mut draining = false;
    let mut watching = true;
    loop {
        let wake = if draining {
            Instant::now() + DRAIN_IDLE / 2
        } else {
            activity.last_io() + settings.keep_alive_timeout
        };
        tokio::select! {
            _ = conn.as_mut() => return,
            () = tokio::time::sleep_until(wake) => {
                let quiet_for = if draining { DRAIN_IDLE } else { settings.keep_alive_timeout };
                if activity.idle_for(quiet_for) {
                    return;
                }
            }
            changed = phase.changed(), if watching => {
                if changed.is_err() {
                    watching = false;
                    continue;
                }
                let now = *phase.borrow_and_update();
                match now {
                    Phase::Serving => {}
                    Phase::Draining if !draining => {
                        draining = true;
                        conn.as_mut().graceful_shutdown();
                    }
                    Phase::Draining => {}
                    Phase::Closing => return,
                }
            }
        }
    }
}

/// When bytes last moved on a connection, and how many requests are in
/// flight on it (a response counts until its body is done).
struct Activity {
    start: Instant,
    last_io_ms: AtomicU64,
    in_flight: AtomicUsize,
}

impl Activity {
    fn new() -> Self {
        Activity {
            start: Instant::now(),
            last_io_ms: AtomicU64::new(0),
            in_flight: AtomicUsize::new(0),
        }
    }

    fn touch(&self) {
        let ms = self.start.elapsed().as_millis() as u64;
        self.last_io_ms.store(ms, Ordering::Relaxed);
    }

    fn last_io(&self) -> Instant {
        self.start + Duration::from_millis(self.last_io_ms.load(Ordering::Relaxed))
    }

    /// No request in flight and no bytes moved for `quiet`.
    fn idle_for(&self, quiet: Duration) -> bool {
        self.in_flight.load(Ordering::Relaxed) == 0 && self.last_io().elapsed() >= quiet
    }
}

/// One request in flight on a connection, from its head to the end of its
/// response body.
struct InFlight(Arc<Activity>);

impl InFlight {
    fn begin(activity: Arc<Activity>) -> Self {
        activity.in_flight.fetch_add(1, Ordering::Relaxed);
        InFlight(activity)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.touch();
        self.0.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A response body that keeps its request counted as in flight.
struct TrackedBody {
    inner: Body,
    _in_flight: InFlight,
}

impl HttpBody for TrackedBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// The request body did not arrive in time.
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive within {0:?} (--body-timeout)")]
pub struct BodyTimeout(Duration);

/// A request body that must arrive whole within a deadline set when its
/// head arrived (a client that promises a body and sends none is cut).
struct DeadlineBody {
    inner: Incoming,
    limit: Duration,
    deadline: Pin<Box<Sleep>>,
}

impl DeadlineBody {
    fn new(inner: Incoming, limit: Duration) -> Self {
        DeadlineBody {
            inner,
            limit,
            deadline: Box::pin(tokio::time::sleep(limit)),
        }
    }
}

impl HttpBody for DeadlineBody {
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Some(Err(Box::new(BodyTimeout(self.limit))))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// A socket that records when bytes move through it.
struct TrackedIo {
    inner: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for TrackedIo {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.activity.touch();
        }
        polled
    }
}

impl AsyncWrite for TrackedIo {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write(cx, buf);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        polled
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
