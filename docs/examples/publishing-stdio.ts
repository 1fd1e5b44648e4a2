#!/usr/bin/env node
// What `npx @acme/weather-mcp` runs: package.json "bin". The first line stays first.
import { StdioTransport } from 'phantom-mcp';
import { server } from './publishing';

void server.connect(new StdioTransport());
