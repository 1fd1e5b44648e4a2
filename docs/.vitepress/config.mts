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
          { text: 'Elicitation', link: '/guide/elicitation' },
          { text: 'Testing', link: '/guide/testing' },
          { text: 'Tasks', link: '/guide/tasks' },
          { text: 'Writing an extension', link: '/guide/extensions' },
          { text: 'Skills', link: '/guide/skills' },
          { text: 'MCP Apps', link: '/guide/apps' },
        ],
      },
      {
        text: 'Concepts',
        items: [{ text: 'The two protocol eras', link: '/concepts/eras' }],
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
