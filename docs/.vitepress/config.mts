import { defineConfig } from 'vitepress';

/** The docs site: guides and concepts written here, the API reference built by typedoc into public/api. */
export default defineConfig({
  title: 'phantom-mcp',
  description: 'Model Context Protocol servers as decorated TypeScript classes',
  cleanUrls: false,
  ignoreDeadLinks: false,
  srcExclude: ['examples/**', 'public/**'],
  themeConfig: {
    search: { provider: 'local' },
    nav: [
      { text: 'Guide', link: '/guide/getting-started' },
      { text: 'Concepts', link: '/concepts/eras' },
      { text: 'API', link: '/api/index.html', target: '_self' },
      { text: 'Changelog', link: '/changelog' },
    ],
    sidebar: [
      {
        text: 'Guide',
        items: [
          { text: 'Getting started', link: '/guide/getting-started' },
          { text: 'Tools and DTOs', link: '/guide/tools' },
          { text: 'Resources', link: '/guide/resources' },
          { text: 'Prompts', link: '/guide/prompts' },
          { text: 'Guards, interceptors, scopes', link: '/guide/pipeline' },
          { text: 'Dependency injection', link: '/guide/dependency-injection' },
          { text: 'Elicitation', link: '/guide/elicitation' },
          { text: 'Testing', link: '/guide/testing' },
          { text: 'Server and Context', link: '/guide/server-and-context' },
        ],
      },
      {
        text: 'Extensions',
        items: [
          { text: 'Tasks', link: '/guide/tasks' },
          { text: 'MCP Apps', link: '/guide/apps' },
          { text: 'Skills', link: '/guide/skills' },
          { text: 'Writing an extension', link: '/guide/extensions' },
        ],
      },
      {
        text: 'Serving',
        items: [
          { text: 'Transports and HTTP', link: '/guide/http' },
          { text: 'Hosting', link: '/guide/hosting' },
          { text: 'Authorization', link: '/guide/authorization' },
          { text: 'Replicas and shutting down', link: '/guide/replicas' },
          { text: 'Observability', link: '/guide/observability' },
          { text: 'Limits', link: '/guide/limits' },
        ],
      },
      {
        text: 'Shipping',
        items: [
          { text: 'Command line', link: '/guide/cli' },
          { text: 'Publishing and installing', link: '/guide/publishing' },
        ],
      },
      {
        text: 'Concepts',
        items: [
          { text: 'The two protocol eras', link: '/concepts/eras' },
          { text: 'The path of a call', link: '/concepts/call-path' },
          { text: 'The seams', link: '/concepts/seams' },
        ],
      },
      {
        text: 'Reference',
        items: [
          { text: 'API (TypeDoc)', link: '/api/index.html', target: '_self' },
          { text: 'Changelog', link: '/changelog' },
        ],
      },
    ],
  },
});
