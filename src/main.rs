fn main() -> std::process::ExitCode {
    iree_llm::cli::main()
}
