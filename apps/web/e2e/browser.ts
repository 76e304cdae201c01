export { launchChromium } from '@strm/testing';
