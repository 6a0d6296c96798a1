/** The words of the API reference page (/docs), in one place. */
export const DOCS_WORDS = {
  title: "API reference",
  headerNav: "Reference",
  backToDashboard: "Dashboard",
  backToDashboardLabel: "Back to the dashboard",
  download: "openapi.json",
  downloadLabel: "Download openapi.json",
  resources: "Resources",
  webhookPath: "to your webhookUrl",
  full: {
    heading: "Full reference",
    text: "Every request and answer schema, examples in several languages and a console to try each request. About 3 MB: loaded when you ask for it.",
    load: "Load the full reference",
    loading: "Loading the full reference…",
  },
} as const;
