//! `strm-local-chain`: the project's local Solana cluster (see chain/README.md). JSON-RPC on --rpc-port, PubSub on
//! the next port, state kept in <data-dir>/ledger.bin across restarts.
mod pubsub;
mod rpc;
mod state;

/// Tests count what each thread keeps allocated (see the leak test in `state`).
#[cfg(test)]
#[global_allocator]
static ALLOCATOR: test_alloc::Counting = test_alloc::Counting;

#[cfg(test)]
mod test_alloc {
    use std::{
        alloc::{GlobalAlloc, Layout, System},
        cell::Cell,
    };

    thread_local! { static NET: Cell<isize> = const { Cell::new(0) }; }

    fn add(bytes: isize) {
        let _ = NET.try_with(|n| n.set(n.get() + bytes));
    }

    /// Bytes this thread has allocated and not freed.
    pub fn net_on_this_thread() -> isize {
        NET.with(Cell::get)
    }

    pub struct Counting;

    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            add(layout.size() as isize);
            System.alloc(layout)
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            add(-(layout.size() as isize));
            System.dealloc(ptr, layout)
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            add(new_size as isize - layout.size() as isize);
            System.realloc(ptr, layout, new_size)
        }
    }
}

use std::{net::SocketAddr, path::PathBuf, time::Duration};

use anyhow::{Context, Result};
use clap::Parser;
use tokio::net::TcpListener;

#[derive(Parser)]
#[command(version, about = "A local Solana chain running the STRM mining program natively")]
struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// JSON-RPC port; PubSub listens on the next one.
    #[arg(long, default_value_t = 8899)]
    rpc_port: u16,
    /// Where the ledger (every account, kept across restarts) lives.
    #[arg(long, default_value = ".data/chain")]
    data_dir: PathBuf,
    /// Start from an empty ledger.
    #[arg(long)]
    reset: bool,
    /// Stop when standard input closes: a launcher that dies (even by SIGKILL) takes the chain with it.
    #[arg(long)]
    exit_on_stdin_close: bool,
    /// Transactions kept in memory for getTransaction and getSignatureStatuses (the oldest are dropped).
    #[arg(long, default_value_t = state::Limits::default().max_transactions)]
    max_transactions: usize,
    /// Events queued for each PubSub connection before it has to catch up from the transactions kept.
    #[arg(long, default_value_t = state::Limits::default().event_queue)]
    pubsub_queue: usize,
    /// A PubSub connection that takes longer than this to accept a message is closed.
    #[arg(long, default_value_t = 10_000)]
    pubsub_send_timeout_ms: u64,
    /// The mining program's upgrade authority (a base58 address), recorded in its ProgramData as
    /// `anchor deploy` does on a cluster: only this key can initialise the program's config. Without it
    /// the program has no ProgramData and nobody can.
    #[arg(long)]
    upgrade_authority: Option<solana_sdk::pubkey::Pubkey>,
    /// Run the mining program's SBF build (`target/deploy/mining.so`, given here) in the SBF engine
    /// (`--sbf-engine`, chain/svm) instead of natively.
    #[arg(long, requires = "sbf_engine")]
    sbf_program: Option<PathBuf>,
    /// The SBF engine, `strm-svm` (chain/svm): LiteSVM over agave 4.3, which loads SBPF v3.
    #[arg(long, requires = "sbf_program")]
    sbf_engine: Option<PathBuf>,
}

/// A fresh random token for the cheat codes, written for this run only to <data-dir>/cheat-token (0600).
fn write_cheat_token(data_dir: &std::path::Path) -> Result<String> {
    use std::{io::Read, io::Write, os::unix::fs::OpenOptionsExt};
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let path = data_dir.join("cheat-token");
    let _ = std::fs::remove_file(&path);
    let mut file = std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(&path)?;
    file.write_all(token.as_bytes())?;
    Ok(token)
}

async fn stdin_closed() {
    use tokio::io::AsyncReadExt;
    let mut stdin = tokio::io::stdin();
    let mut buf = [0u8; 64];
    while let Ok(n) = stdin.read(&mut buf).await {
        if n == 0 {
            return;
        }
    }
}

async fn shutdown_signal(watch_stdin: bool) {
    let ctrl_c = tokio::signal::ctrl_c();
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).expect("SIGTERM handler");
    let stdin = async {
        if watch_stdin {
            stdin_closed().await
        } else {
            std::future::pending().await
        }
    };
    tokio::select! {
        _ = ctrl_c => {},
        _ = term.recv() => {},
        _ = stdin => {},
    }
}

#[tokio::main]
async fn main() -> Result<()> {
    let args = Args::parse();
    std::fs::create_dir_all(&args.data_dir).with_context(|| format!("creating {}", args.data_dir.display()))?;
    let ledger = args.data_dir.join("ledger.bin");
    if args.reset && ledger.exists() {
        std::fs::remove_file(&ledger)?;
        let _ = std::fs::remove_file(state::slot_file(&ledger));
    }
    let limits = state::Limits { max_transactions: args.max_transactions, event_queue: args.pubsub_queue };
    let sbf = match (args.sbf_engine, args.sbf_program) {
        (Some(engine), Some(program)) => Some(state::Sbf { engine, program }),
        _ => None,
    };
    let validator = state::Validator::start(&ledger, limits, args.upgrade_authority, sbf.as_ref()).await?;
    let cheats = rpc::Cheats {
        token: write_cheat_token(&args.data_dir).context("writing the cheat token")?,
        listen_host: args.host.to_ascii_lowercase(),
    };

    let rpc_addr: SocketAddr = format!("{}:{}", args.host, args.rpc_port).parse()?;
    let ws_addr: SocketAddr = format!("{}:{}", args.host, args.rpc_port + 1).parse()?;
    let rpc = TcpListener::bind(rpc_addr).await.with_context(|| format!("binding {rpc_addr}"))?;
    let ws = TcpListener::bind(ws_addr).await.with_context(|| format!("binding {ws_addr}"))?;

    let slots = {
        let validator = validator.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(state::SLOT_DURATION / 8);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                if let Err(e) = validator.follow_ticker().await {
                    eprintln!("strm-local-chain: following the slots failed: {e:#}");
                }
            }
        })
    };
    let saver = {
        let validator = validator.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(1));
            loop {
                tick.tick().await;
                if let Err(e) = validator.save().await {
                    eprintln!("strm-local-chain: saving the ledger failed: {e:#}");
                }
            }
        })
    };

    println!(
        "strm-local-chain ready program={} rpc=http://{rpc_addr} ws=ws://{ws_addr} ledger={}",
        validator.engine_name(),
        ledger.display()
    );
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let wait = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
        let _ = rx.wait_for(|stop| *stop).await;
    };
    let rpc_server =
        axum::serve(rpc, rpc::router(validator.clone(), cheats)).with_graceful_shutdown(wait(stop_rx.clone()));
    let (live_tx, mut live_rx) = tokio::sync::mpsc::channel::<()>(1);
    let send_timeout = Duration::from_millis(args.pubsub_send_timeout_ms);
    let ws_server = axum::serve(ws, pubsub::router(validator.clone(), stop_rx.clone(), live_tx, send_timeout))
        .with_graceful_shutdown(wait(stop_rx));
    let servers = tokio::spawn(async move { tokio::join!(rpc_server, ws_server) });

    shutdown_signal(args.exit_on_stdin_close).await;
    let _ = stop_tx.send(true);
    slots.abort();
    saver.abort();
    let _ = tokio::time::timeout(Duration::from_secs(3), async {
        let _ = servers.await;
        // The server's own sender went with it; the channel closes when the last session is done.
        live_rx.recv().await;
    })
    .await;
    validator.save().await.context("saving the ledger")?;
    println!("strm-local-chain stopped");
    // The stdin watcher is a blocking read the runtime would otherwise wait for at shutdown.
    std::process::exit(0)
}
