//! `strm-agave-validator`: agave's own test validator (crates.io `solana-test-validator`) with the mining
//! program's SBF build at genesis, started with the same arguments as `strm-local-chain` so the launcher
//! (chain/ts) can run either; the reference the local chain is held to (docs/chain.md#the-reference-validator).
use std::{
    net::{IpAddr, Ipv4Addr, SocketAddr},
    path::{Path, PathBuf},
    process::ExitCode,
    str::FromStr,
    sync::{Arc, Mutex},
    time::Instant,
};

use solana_faucet::faucet::{run_faucet, Faucet};
use solana_keypair::Keypair;
use solana_net_utils::{socket_addr_space::SocketAddrSpace, PortRange};
use solana_pubkey::Pubkey;
use solana_rpc::rpc::JsonRpcConfig;
use solana_signer::Signer;
use solana_test_validator::{TestValidatorGenesis, UpgradeableProgramInfo};

// Linked against Debian's RocksDB 7.8 (scripts/agave/build.sh), which lacks this function of the 10.x C API: the
// rocksdb crate names it only in a WriteBufferManager's drop, and nothing here makes one. Weak, so that a RocksDB
// built from source (which has it) takes its place. docs/chain.md#the-reference-validator
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
std::arch::global_asm!(
    ".pushsection .text.strm_rocksdb_write_buffer_manager_destroy,\"ax\",@progbits",
    ".weak rocksdb_write_buffer_manager_destroy",
    ".type rocksdb_write_buffer_manager_destroy,@function",
    "rocksdb_write_buffer_manager_destroy:",
    "ud2",
    ".popsection",
);

const USAGE: &str = "usage: strm-agave-validator --program <mining.so> --program-id <address> \
[--upgrade-authority <address>] [--host 127.0.0.1] [--rpc-port 8899] [--data-dir .data/chain] [--reset] \
[--exit-on-stdin-close] [--ticks-per-slot N] [--dynamic-port-range A-B] [--faucet-port N]";

struct Args {
    host: IpAddr,
    rpc_port: u16,
    data_dir: PathBuf,
    reset: bool,
    exit_on_stdin_close: bool,
    upgrade_authority: Option<Pubkey>,
    program: PathBuf,
    program_id: Pubkey,
    ticks_per_slot: Option<u64>,
    port_range: Option<PortRange>,
    faucet_port: u16,
}

fn parse_args() -> Result<Args, String> {
    let mut host = IpAddr::V4(Ipv4Addr::LOCALHOST);
    let mut rpc_port = 8899;
    let mut data_dir = PathBuf::from(".data/chain");
    let (mut reset, mut exit_on_stdin_close) = (false, false);
    let (mut upgrade_authority, mut program, mut program_id) = (None, None, None);
    let (mut ticks_per_slot, mut port_range, mut faucet_port) = (None, None, 0);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value\n{USAGE}"));
        let bad = |what: &str, err: &dyn std::fmt::Display| format!("{flag} {what}: {err}");
        match flag.as_str() {
            "--host" => host = value()?.parse().map_err(|e| bad("is an IP address", &e))?,
            "--rpc-port" => rpc_port = value()?.parse().map_err(|e| bad("is a port", &e))?,
            "--data-dir" => data_dir = value()?.into(),
            "--reset" => reset = true,
            "--exit-on-stdin-close" => exit_on_stdin_close = true,
            "--upgrade-authority" => {
                upgrade_authority = Some(Pubkey::from_str(&value()?).map_err(|e| bad("is an address", &e))?)
            }
            "--program" => program = Some(PathBuf::from(value()?)),
            "--program-id" => program_id = Some(Pubkey::from_str(&value()?).map_err(|e| bad("is an address", &e))?),
            "--ticks-per-slot" => ticks_per_slot = Some(value()?.parse().map_err(|e| bad("is a number", &e))?),
            "--dynamic-port-range" => {
                let text = value()?;
                let (a, b) = text.split_once('-').ok_or_else(|| format!("{flag} is A-B, not {text}"))?;
                port_range =
                    Some((a.parse().map_err(|e| bad("is A-B", &e))?, b.parse().map_err(|e| bad("is A-B", &e))?));
            }
            "--faucet-port" => faucet_port = value()?.parse().map_err(|e| bad("is a port", &e))?,
            // The local chain's memory bounds (docs/chain.md#bounded-so-it-can-be-left-running); agave keeps its own.
            "--max-transactions" | "--pubsub-queue" | "--pubsub-send-timeout-ms" => {
                value()?;
            }
            "--help" | "-h" => return Err(USAGE.to_string()),
            other => return Err(format!("unknown argument {other}\n{USAGE}")),
        }
    }
    if rpc_port == u16::MAX {
        return Err("--rpc-port leaves no port for PubSub (RPC + 1)".into());
    }
    Ok(Args {
        host,
        rpc_port,
        data_dir,
        reset,
        exit_on_stdin_close,
        upgrade_authority,
        program: program.ok_or_else(|| format!("--program is required\n{USAGE}"))?,
        program_id: program_id.ok_or_else(|| format!("--program-id is required\n{USAGE}"))?,
        ticks_per_slot,
        port_range,
        faucet_port,
    })
}

/// Gossip, TPU, TVU and repair sockets (about 20) below the test suites' ports (20,000 and up) and the
/// kernel's ephemeral range, a block of 60 per RPC port so validators started side by side never share one.
fn default_port_range(rpc_port: u16) -> PortRange {
    let start = 10_000 + (rpc_port % 160) * 60;
    (start, start + 60)
}

/// The faucet's keypair is genesis's mint: kept beside the ledger, since a restart keeps the ledger's genesis.
fn mint_keypair(ledger: &Path) -> Result<Keypair, String> {
    let path = ledger.join("strm-faucet-keypair.json");
    if let Ok(text) = std::fs::read_to_string(&path) {
        let bytes: Vec<u8> = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        return Keypair::try_from(bytes.as_slice()).map_err(|e| format!("{}: {e}", path.display()));
    }
    let keypair = Keypair::new();
    std::fs::create_dir_all(ledger).map_err(|e| format!("creating {}: {e}", ledger.display()))?;
    let text = serde_json::to_string(&keypair.to_bytes().to_vec()).expect("bytes serialise");
    std::fs::write(&path, text).map_err(|e| format!("writing {}: {e}", path.display()))?;
    Ok(keypair)
}

/// Serves requestAirdrop (agave's RPC forwards it to a faucet) from the mint, with no caps, as
/// `solana-test-validator` does.
fn start_faucet(mint: &Keypair, host: IpAddr, port: u16) -> Result<SocketAddr, String> {
    let faucet = Arc::new(Mutex::new(Faucet::new(mint.insecure_clone(), None, None, None)));
    let (sender, receiver) = crossbeam_channel::bounded(1);
    std::thread::Builder::new()
        .name("strmFaucet".into())
        .spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("faucet runtime");
            runtime.block_on(run_faucet(faucet, SocketAddr::new(host, port), Some(sender)));
        })
        .map_err(|e| format!("starting the faucet: {e}"))?;
    receiver.recv().map_err(|e| format!("the faucet stopped: {e}"))?
}

async fn until_stopped(watch_stdin: bool) {
    use tokio::io::AsyncReadExt;
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).expect("SIGTERM handler");
    let stdin = async {
        if !watch_stdin {
            return std::future::pending().await;
        }
        let mut stdin = tokio::io::stdin();
        let mut buf = [0u8; 64];
        while let Ok(n) = stdin.read(&mut buf).await {
            if n == 0 {
                return;
            }
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {},
        _ = term.recv() => {},
        _ = stdin => {},
    }
}

fn run(args: Args) -> Result<(), String> {
    let started = Instant::now();
    let ledger = args.data_dir.join("agave-ledger");
    if args.reset && ledger.exists() {
        std::fs::remove_dir_all(&ledger).map_err(|e| format!("removing {}: {e}", ledger.display()))?;
    }
    let mint = mint_keypair(&ledger)?;
    let faucet = start_faucet(&mint, args.host, args.faucet_port)?;
    let port_range = args.port_range.unwrap_or_else(|| default_port_range(args.rpc_port));

    let mut genesis = TestValidatorGenesis::default();
    genesis
        .ledger_path(&ledger)
        .bind_ip_addr(args.host)
        .gossip_host(args.host)
        .port_range(port_range)
        .gossip_port(port_range.0)
        .rpc_port(args.rpc_port)
        // getTransaction and getSignatureStatuses' history, which agave keeps only when asked.
        .rpc_config(JsonRpcConfig {
            enable_rpc_transaction_history: true,
            enable_extended_tx_metadata_storage: true,
            faucet_addr: Some(faucet),
            ..JsonRpcConfig::default_for_test()
        })
        // As `anchor deploy` leaves it: an upgradeable program whose authority is genesis's key.
        .add_upgradeable_programs_with_path(&[UpgradeableProgramInfo {
            program_id: args.program_id,
            loader: solana_sdk_ids::bpf_loader_upgradeable::id(),
            upgrade_authority: args.upgrade_authority.unwrap_or_default(),
            program_path: args.program.clone(),
        }]);
    if let Some(ticks) = args.ticks_per_slot {
        genesis.ticks_per_slot(ticks);
    }

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(|e| format!("runtime: {e}"))?;
    let validator = runtime
        .block_on(genesis.start_async_with_mint_address(&mint, SocketAddrSpace::Unspecified))
        .map_err(|e| format!("agave's test validator did not start: {e}"))?;
    let ws_port = args.rpc_port + 1;
    println!(
        "strm-agave-validator ready program=SBF rpc=http://{host}:{rpc} ws=ws://{host}:{ws_port} ledger={ledger} \
         faucet={faucet} mint={mint} start_ms={ms}",
        host = args.host,
        rpc = args.rpc_port,
        ledger = ledger.display(),
        mint = mint.pubkey(),
        ms = started.elapsed().as_millis(),
    );
    runtime.block_on(until_stopped(args.exit_on_stdin_close));
    drop(validator);
    println!("strm-agave-validator stopped");
    Ok(())
}

fn main() -> ExitCode {
    let outcome = parse_args().and_then(run);
    match outcome {
        Ok(()) => {
            // The faucet's thread and the stdin reader would otherwise hold the process open.
            std::process::exit(0)
        }
        Err(message) => {
            eprintln!("strm-agave-validator: {message}");
            ExitCode::FAILURE
        }
    }
}
