export { freePort } from '@strm/testing';
