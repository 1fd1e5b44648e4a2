// Every spec by default; only the files named when some are given (`npx mocha dist/spec/x.spec.js`):
// mocha adds the configured `spec` to the named files instead of replacing it.
const named = process.argv.slice(2).some((arg) => !arg.startsWith('-') && /\.js$|[*]/.test(arg));

module.exports = {
  spec: named ? [] : ['dist/spec/**/*.spec.js'],
  require: ['source-map-support/register', 'reflect-metadata'],
  recursive: true,
  timeout: 10000,
};
