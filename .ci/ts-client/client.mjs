// Drives `synaptic serve` over stdio with the official TypeScript MCP client
// (@modelcontextprotocol/client 2.x), once per protocol era: lists tools,
// calls graph tools, reads a resource, checks the error surfaces. Exits
// non-zero on any problem. Usage: node client.mjs SYNAPTIC_BIN GRAPH_JSON
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const [bin, graph] = process.argv.slice(2);
if (!bin || !graph) {
	console.error('usage: node client.mjs SYNAPTIC_BIN GRAPH_JSON');
	process.exit(2);
}

function check(cond, msg) {
	if (!cond) throw new Error(msg);
}

const text = (res) => (res.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('');

async function session(label, mode, wantVersion) {
	const transport = new StdioClientTransport({ command: bin, args: ['serve', '--graph', graph], stderr: 'pipe' });
	let stderr = '';
	transport.stderr?.on('data', (d) => (stderr += d));
	const client = new Client({ name: 'synaptic-ts-check', version: '0.0.1' }, { capabilities: {}, versionNegotiation: { mode } });
	try {
		await client.connect(transport);
		const version = client.getNegotiatedProtocolVersion();
		check(version === wantVersion, `${label}: negotiated ${version} (era ${client.getProtocolEra()}), want ${wantVersion}`);

		const { tools } = await client.listTools();
		const names = tools.map((t) => t.name);
		for (const want of ['query_graph', 'get_node', 'find_callers', 'get_source', 'affected']) {
			check(names.includes(want), `${label}: tools/list lacks ${want}: ${names.join(', ')}`);
		}

		const stats = await client.callTool({ name: 'graph_stats', arguments: {} });
		check(!stats.isError && /nodes/.test(text(stats)), `${label}: graph_stats: ${JSON.stringify(stats)}`);
		check(stats.structuredContent && typeof stats.structuredContent === 'object', `${label}: graph_stats has no structuredContent`);

		const first = tools.find((t) => t.name === 'get_node');
		check(first?.annotations?.readOnlyHint === true, `${label}: get_node is not annotated read-only`);

		const q = await client.callTool({ name: 'query_graph', arguments: { question: 'main entry point' } });
		check(!q.isError && text(q).length > 0, `${label}: query_graph: ${JSON.stringify(q)}`);

		const bad = await client.callTool({ name: 'get_node', arguments: { label: 7 } });
		check(bad.isError === true, `${label}: bad arguments not an isError result: ${JSON.stringify(bad)}`);

		let unknownErr;
		try {
			await client.callTool({ name: 'no_such_tool', arguments: {} });
		} catch (e) {
			unknownErr = e;
		}
		check(unknownErr, `${label}: calling an unknown tool did not fail`);

		const res = await client.readResource({ uri: 'synaptic://stats' });
		check(res.contents?.length === 1 && /nodes/.test(res.contents[0].text), `${label}: synaptic://stats: ${JSON.stringify(res)}`);

		console.log(`${label} ${version} ok: ${names.length} tools`);
	} catch (e) {
		if (stderr) console.error(`server stderr:\n${stderr}`);
		throw e;
	} finally {
		await client.close();
	}
}

try {
	await session('legacy', 'legacy', '2025-11-25');
	await session('modern', { pin: '2026-07-28' }, '2026-07-28');
} catch (e) {
	console.error(`ts-client: ${e?.stack ?? e}`);
	process.exit(1);
}
