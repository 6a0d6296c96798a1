/** The browser entry of the React shop (see pay-button-shop.tsx): hydrates the server's HTML. */
import { hydrateRoot } from "react-dom/client";
import { ShopApp } from "./pay-button-shop";

const root = document.getElementById("root");
const baseUrl = document.documentElement.dataset.gateway;
if (!root || !baseUrl) throw new Error("the shop page needs #root and <html data-gateway>");
hydrateRoot(root, <ShopApp baseUrl={baseUrl} />);
