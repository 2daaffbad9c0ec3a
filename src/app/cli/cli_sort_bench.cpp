#include "app/cli/cli_commands.h"

#include "app/cli/cli_values.h"

namespace app {

void addSortBenchFlags(CLI::App* sortBench, SortBenchOptions& options, SortBenchFlags& flags) {
    flags.app = sortBench;
    sortBench->add_option(
        "--n", flags.sizes,
        "pair counts, comma-separated [1e6,4e6,16e6,64e6 up to the device's limit; on a CPU device 1e5,5e5 "
        "unless --full]");
    sortBench->add_flag(
        "--full", options.full,
        "on a CPU device too, the full sweep's pair counts (a CPU device runs a short sweep by "
        "default)");
    sortBench->add_option("--bits", flags.bits, "key widths in bits, comma-separated")->capture_default_str();
    sortBench
        ->add_option(
            "--algorithm", flags.algorithms,
            "sort algorithms, comma-separated: onesweep, reduce-then-scan, or auto (by the pair count "
            "and key width, as the simulation chooses)")
        ->capture_default_str();
    sortBench
        ->add_option("--warmup-ms", flags.warmupMs,
                     "untimed sorts, back to back, for this long before each configuration's timed runs, so "
                     "that the GPU's clock has risen from idle")
        ->capture_default_str();
    sortBench->add_option("--runs", flags.runs, "timed runs per configuration (at least 20)")
        ->capture_default_str();
    sortBench->add_option("--seed", options.seed, "seed of the random keys")
        ->capture_default_str()
        ->check(seedRange);
    sortBench->add_option("--csv", options.csv, "write the results to FILE.csv")->check(nonEmptyPath);
    nameValues(sortBench,
               {{"--n", "N,..."}, {"--bits", "BITS,..."}, {"--runs", "N"}, {"--algorithm", "ALGORITHM,..."}});
}

void finishSortBench(const SortBenchFlags& flags, SortBenchOptions& options) {
    if (!flags.sizes.empty()) options.sizes = parseCountList(flags.sizes, "--n", 0xffffffffu);
    if (!flags.sizes.empty() && options.full)
        throw io::InputError("give either --n or --full, not both (--full chooses the pair counts)");
    options.bits = parseCountList(flags.bits, "--bits", 32);
    options.algorithms.clear();
    for (const std::string& a : splitList(flags.algorithms))
        options.algorithms.push_back(valueFromText(sort::algorithmNames, a, "--algorithm"));
    refuseRepeats(options.algorithms, splitList(flags.algorithms), "--algorithm");
    options.runs = uint32_t(parseCount(flags.runs, "--runs", 100000));
    options.warmupMs = parseCountOrZero(flags.warmupMs, "--warmup-ms", 600000);
}

} // namespace app
