// Tests that need optional tooling (node-llama-cpp, Node 22 for the MCP conformance suite) skip
// on a developer's machine without it; CI installs it (.ci/run), and there they must run.
export const IN_CI = Boolean(process.env.CI) && process.env.CI !== 'false';
