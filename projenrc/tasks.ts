import { awscdk } from 'projen';

/**
 * MCP Tasks (2026-07-28): the conformance suite whose task scenarios test/clients runs against a task fixture server,
 * and the requester the end-to-end task tests drive the server with.
 */
export function configureTasks(project: awscdk.AwsCdkConstructLibrary): void {
  project.addDevDeps(
    // 0.2.0 pre-releases carry the 2026-07-28 and Tasks (SEP-2663) scenarios; pinned, as every conformance bump moves checks.
    '@modelcontextprotocol/conformance@0.2.0-alpha.12',
    // The requester side of the Tasks extension (createTaskSessionFromClient), on @modelcontextprotocol/client 2.x.
    '@modelcontextprotocol/ext-tasks@0.2.2',
  );
}
