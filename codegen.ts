// placeholder, replaced below
export default {};
