// internal/process/task_queues, as webstreams code uses it.
export function queueMicrotask(callback: () => void): void;
