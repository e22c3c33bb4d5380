/** A small background task: a read, then a durable write in its workspace, checked at the end. */
export const BENCH_QUEUE_PLAYBOOK = `name: bench-queue
inputs:
  n: { type: number, required: true }
steps:
  - id: compute
    tool: echo
    args: { value: "\${inputs.n}" }
  - id: write
    tool: fs.write
    args: { path: out.txt, content: "task \${inputs.n}\\n" }
acceptance:
  - { type: file_exists, path: out.txt }
`;
