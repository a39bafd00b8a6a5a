/**
 * The MCP Tasks extension (2026-07-28) on this server's tools, and the pieces to serve it on other tools (the
 * conformance fixture of test/clients does).
 */
export { createTaskService } from './service';
export type { TaskOutcome, TaskService, TaskServiceOptions, TaskStart, TaskToolDefinition } from './service';
export { refuseUndeclaredTaskCall, serveTaskMethods, taskAwareTools } from './serve';
export { declaresTasks, TASKS_EXTENSION } from './protocol';
export type { CreateTaskResult, GetTaskResult, Task, TaskError, TaskStatus } from './protocol';
